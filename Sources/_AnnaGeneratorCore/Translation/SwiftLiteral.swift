import Foundation

/// Escapes spec text for the two places it lands in generated Swift: string
/// literals and `///` comments. Nothing a spec says can end a literal or a comment
/// early, start an interpolation, or hide code behind bidirectional-text controls.
enum SwiftLiteral {
    /// A quoted Swift string literal for any text.
    static func string(_ text: String) -> String {
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
                    result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
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
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n")
        var lines: [String] = [""]
        for scalar in normalized.unicodeScalars {
            switch scalar {
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

    /// Control characters, bidirectional controls, and other invisible format characters.
    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
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
