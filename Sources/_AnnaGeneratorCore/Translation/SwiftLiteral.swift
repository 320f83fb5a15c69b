/// Escapes spec text for the two places it lands in generated Swift: string
/// literals and `///` comments. Nothing a spec says can end a literal or a comment
/// early, start an interpolation, or hide code behind bidirectional-text controls.
package enum SwiftLiteral {
    /// A quoted Swift string literal for any text.
    static func string(_ text: String) -> String {
        let plain = text.utf8.withContiguousStorageIfAvailable { bytes -> String? in
            guard bytes.allSatisfy(isPlainASCII) else { return nil }
            return String(unsafeUninitializedCapacity: bytes.count + 2) { buffer in
                buffer[0] = UInt8(ascii: "\"")
                _ = UnsafeMutableBufferPointer(rebasing: buffer[1...]).initialize(from: bytes)
                buffer[bytes.count + 1] = UInt8(ascii: "\"")
                return bytes.count + 2
            }
        }
        if let plain = plain ?? nil { return plain }
        return doubleQuoted(text) { hex in "\\u{\(hex)}" }
    }

    /// `"…"` with `\\`, `\"`, `\n`, `\r` and `\t` escaped, and every scalar that
    /// ``needsEscape(_:)`` names written by `unicode` from its uppercase hex digits: the
    /// quoting Swift literals and the YAML `anna import` writes share.
    package static func doubleQuoted(_ text: String, unicode: (String) -> String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if needsEscape(scalar) {
                    result += unicode(String(scalar.value, radix: 16, uppercase: true))
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// Lines for a `///` comment: split at line breaks, with control and
    /// bidirectional characters written as `\u{…}` so they cannot reorder what a
    /// reader sees.
    static func commentLines(_ text: String) -> [String] {
        // Most descriptions are one line of printable ASCII: nothing to split or escape.
        var whole = text
        let printableLength = whole.withUTF8 { bytes -> Int? in
            guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
            var length = bytes.count
            while length > 0, bytes[length - 1] == UInt8(ascii: " ") { length -= 1 }
            return length
        }
        if let printableLength {
            return [printableLength == text.utf8.count ? text : String(Substring(text.utf8.prefix(printableLength)))]
        }
        var lines: [String] = [""]
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            defer { previous = scalar }
            switch scalar {
            case "\n" where previous == "\r":
                continue  // the second half of a \r\n
            case "\n", "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}":
                lines.append("")
            case "\t":
                lines[lines.count - 1] += "    "
            default:
                if needsEscape(scalar) {
                    lines[lines.count - 1] += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                } else {
                    lines[lines.count - 1].unicodeScalars.append(scalar)
                }
            }
        }
        while lines.count > 1, lines.last?.allSatisfy(\.isWhitespace) == true { lines.removeLast() }
        return lines.map { line in
            var line = Substring(line)
            while line.last == " " { line = line.dropLast() }
            return String(line)
        }
    }

    /// A name as an argument label at a call site, where only `inout` needs backticks
    /// (the compiler warns about the others').
    static func argumentLabel(_ name: String) -> String {
        name == "inout" ? "`inout`" : name
    }

    /// Printable ASCII that needs no escape in a string literal.
    static func isPlainASCII(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
    }

    /// Control characters, bidirectional controls, and other invisible format characters;
    /// `anna import` escapes the same ones in the YAML it writes.
    package static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200D: return false  // zero-width joiner: keeps emoji sequences whole
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x061C, 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x2069, 0xFEFF: return true
        default:
            switch scalar.properties.generalCategory {
            case .format, .control, .surrogate, .privateUse, .unassigned, .lineSeparator, .paragraphSeparator: return true
            default: return false
            }
        }
    }
}
