import _AnnaGeneratorCore
/// Writes a string as a YAML scalar that every YAML reader, 1.1 or 1.2, reads back as
/// that same string: plain when that is safe, double-quoted with escapes otherwise.
enum YAMLScalarQuoting {
    /// Words YAML 1.1 or 1.2 readers take as booleans or null.
    private static let reservedWords: Set<String> = [
        "true", "false", "yes", "no", "on", "off", "y", "n", "null", "~",
    ]

    /// The scalar as it is written in a block mapping or sequence.
    static func scalar(_ text: String) -> String {
        isPlainSafe(text) ? text : doubleQuoted(text)
    }

    private static func isPlainSafe(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else { return false }
        guard text.unicodeScalars.allSatisfy({ (0x20..<0x7F).contains($0.value) }) else { return false }
        if "-?:,[]{}#&*!|>'\"%@` .+0123456789".unicodeScalars.contains(first) { return false }
        if last == " " || last == ":" { return false }
        if text.contains(": ") || text.contains(" #") { return false }
        return !reservedWords.contains(text.lowercased())
    }

    /// `"…"` with `\\`, `\"`, `\n`, `\t` and `\uXXXX` for every control, format and
    /// separator character, so nothing invisible or line-breaking reaches the file.
    static func doubleQuoted(_ text: String) -> String {
        SwiftLiteral.doubleQuoted(text) { hex in
            hex.count > 4 ? "\\U" + String(repeating: "0", count: 8 - hex.count) + hex
                : "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
    }

    /// The characters generated Swift escapes: controls, bidirectional and other
    /// invisible format characters (a zero-width joiner inside emoji stays).
    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        SwiftLiteral.needsEscape(scalar)
    }

    /// Text for a `#` comment: one line, without control characters.
    static func commentText(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { needsEscape($0) ? " " : $0 }))
    }
}
