/// A JSON value that `anna export` writes: objects render with their keys sorted,
/// so the same plan always gives the same bytes and a change shows as a small diff.
package indirect enum ExportJSON: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number; whole numbers below 2^53 render without a fraction (`3`, not `3.0`).
    case number(Double)
    /// A string, escaped as JSON requires.
    case string(String)
    /// An array, in order.
    case array([ExportJSON])
    /// An object; its keys render sorted by their UTF-8 bytes.
    case object([String: ExportJSON])

    /// The value as pretty-printed JSON, two spaces an indent, keys sorted, with a final line break.
    package var rendered: String {
        var text = ""
        write(into: &text, indent: "")
        return text + "\n"
    }

    private func write(into text: inout String, indent: String) {
        switch self {
        case .null: text += "null"
        case .bool(let value): text += value ? "true" : "false"
        case .number(let value): text += Self.number(value)
        case .string(let value): Self.quote(value, into: &text)
        case .array(let values):
            guard !values.isEmpty else { text += "[]"; return }
            // Arrays of scalars (required, enum, type) stay on one line.
            if values.allSatisfy(\.isScalar) {
                text += "["
                for (index, value) in values.enumerated() {
                    if index > 0 { text += ", " }
                    value.write(into: &text, indent: indent)
                }
                text += "]"
                return
            }
            let inner = indent + "  "
            text += "[\n"
            for (index, value) in values.enumerated() {
                text += inner
                value.write(into: &text, indent: inner)
                text += index == values.count - 1 ? "\n" : ",\n"
            }
            text += indent + "]"
        case .object(let members):
            guard !members.isEmpty else { text += "{}"; return }
            let inner = indent + "  "
            text += "{\n"
            let keys = members.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            for (index, key) in keys.enumerated() {
                text += inner
                Self.quote(key, into: &text)
                text += ": "
                members[key]!.write(into: &text, indent: inner)
                text += index == keys.count - 1 ? "\n" : ",\n"
            }
            text += indent + "}"
        }
    }

    private var isScalar: Bool {
        switch self {
        case .array, .object: false
        default: true
        }
    }

    private static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 { return String(Int64(value)) }
        return "\(value)"
    }

    private static func quote(_ value: String, into text: inout String) {
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16)
                    text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
        }
        text += "\""
    }
}
