import AnnaRules
import _AnnaGeneratorCore

/// Text both client renderers write: string literals, doc comments, numbers.
enum ClientText {
    /// A double-quoted string literal that any C-family language reads back as
    /// `text`: quotes, backslashes, control, line and paragraph separators and bidi
    /// controls as `\uXXXX`, so no name or description in a spec ends the literal or
    /// hides code. Kotlin also escapes `$`, which starts a template there.
    static func quoted(_ text: String, escapingDollar: Bool = false) -> String {
        // Most names are printable ASCII with nothing to escape: the text as it is.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C && !(escapingDollar && $0 == 0x24) }) {
            return "\"" + text + "\""
        }
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "$" where escapingDollar: out += "\\$"
            default:
                if needsEscape(scalar) {
                    out += unicodeEscape(scalar)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// Control characters, line and paragraph separators, bidi controls and the BOM.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || value == 0x7F || (0x80...0x9F).contains(value) || value == 0x2028 || value == 0x2029
            || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value) || value == 0x200E
            || value == 0x200F || value == 0x061C || value == 0xFEFF
    }

    /// `\uXXXX`, or the surrogate pair beyond the Basic Multilingual Plane.
    static func unicodeEscape(_ scalar: Unicode.Scalar) -> String {
        String(scalar).utf16.map { unit in
            let hex = String(unit, radix: 16, uppercase: true)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }.joined()
    }

    /// A description as the lines of a `/** */` comment, each starting ` * ` after
    /// `indent`: `*/` cannot close it, and control and bidi characters are shown as
    /// `\uXXXX`.
    static func docComment(_ lines: [String], indent: String) -> String {
        let body = lines.filter { !$0.isEmpty || lines.count > 1 }
        guard !body.isEmpty else { return "" }
        var out = indent + "/**\n"
        for line in body {
            var safe = line
            if !line.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
                safe = ""
                for scalar in line.unicodeScalars {
                    if needsEscape(scalar) { safe += unicodeEscape(scalar) } else { safe.unicodeScalars.append(scalar) }
                }
            }
            if safe.utf8.contains(UInt8(ascii: "*")) {
                safe = safe.replacing("*/", with: "*\\/").replacing("/*", with: "/\\*")
            }
            out += indent + (safe.isEmpty ? " *" : " * " + safe) + "\n"
        }
        return out + indent + " */\n"
    }

    /// A description split into its lines, trailing blanks dropped; empty for none.
    static func lines(_ description: String?) -> [String] {
        guard let description, !description.allSatisfy(\.isWhitespace) else { return [] }
        return description.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0.hasSuffix("\r") ? $0.dropLast() : $0)
        }
    }

    /// A number as both languages read a double: `0.0`, `99.5`, `1.0E10`.
    static func double(_ value: Double) -> String {
        value.isFinite ? "\(value)" : "0.0"
    }

    /// A description, then what the spec says of the value in words.
    static func propertyDocLines(_ property: ClientModel.Property, piiOption: String) -> [String] {
        var lines = ClientText.lines(property.description)
        var notes: [String] = []
        let constraints = property.constraints
        if let min = constraints.min { notes.append("min \(min.compactDescription)") }
        if let max = constraints.max { notes.append("max \(max.compactDescription)") }
        if let minLength = constraints.minLength { notes.append("minLength \(minLength)") }
        if let maxLength = constraints.maxLength { notes.append("maxLength \(maxLength)") }
        if let pattern = constraints.pattern { notes.append("pattern `\(pattern)`") }
        if property.isPII { notes.append("PII: left out unless `\(piiOption)` is set") }
        if property.wireName != property.identifier { notes.append("sent as \(ClientText.quoted(property.wireName))") }
        if !notes.isEmpty { lines.append(notes.joined(separator: "; ") + ".") }
        return lines
    }

    /// A call's description, then what it sends.
    static func callDocLines(_ call: ClientModel.Call, kind: String) -> [String] {
        ClientText.lines(call.description) + ["Sends the \(kind) \(quoted(call.wireName)) (consent: \(call.consent))."]
    }
}
