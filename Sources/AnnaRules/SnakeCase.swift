/// The snake-case rule, shared by ``ProviderProfile/mapped(_:)`` at build time and
/// `SnakeCaseEventMapper` at run time, so a name that passes at build time passes
/// at run time.
package enum SnakeCase {
    /// Converts a name to snake case.
    ///
    /// A word boundary falls before an uppercase letter that follows a lowercase
    /// letter or digit, before the last capital of an acronym followed by a lowercase
    /// letter (`URLOpened` → `url_opened`) unless that letter is a plural `s`
    /// ending the word (`productIDs` → `product_ids`), and at spaces, hyphens and dots, which
    /// become underscores. Digits stay with the word before them (`categoryID2` →
    /// `category_id2`).
    /// - Parameter name: The name to convert.
    /// - Returns: The name in lowercase snake case.
    package static func convert(_ name: String) -> String {
        if name.utf8.allSatisfy({ $0 < 0x80 }) { return asciiSnakeCase(name) }
        let characters = Array(name)
        var result = ""
        result.reserveCapacity(characters.count + 4)
        for (index, character) in characters.enumerated() {
            if character == " " || character == "-" || character == "." || character == "_" {
                if !result.isEmpty && result.last != "_" { result.append("_") }
                continue
            }
            if character.isUppercase, index > 0, !result.isEmpty, result.last != "_" {
                let previous = characters[index - 1]
                let next: Character? = index + 1 < characters.count ? characters[index + 1] : nil
                let afterLowerOrDigit = previous.isLowercase || previous.isNumber
                let afterNext: Character? = index + 2 < characters.count ? characters[index + 2] : nil
                let pluralAcronym = next == "s" && !(afterNext?.isLowercase ?? false)
                let endsAcronym = previous.isUppercase && (next?.isLowercase ?? false) && !pluralAcronym
                if afterLowerOrDigit || endsAcronym { result.append("_") }
            }
            result.append(contentsOf: character.lowercased())
        }
        while result.last == "_" { result.removeLast() }
        return result
    }

    /// The same rules on ASCII bytes, which is what names almost always are, without
    /// the cost of Unicode character properties.
    private static func asciiSnakeCase(_ name: String) -> String {
        let bytes = Array(name.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + 4)
        let underscore = UInt8(ascii: "_")
        func isUpper(_ byte: UInt8) -> Bool { byte >= 0x41 && byte <= 0x5A }
        func isLower(_ byte: UInt8) -> Bool { byte >= 0x61 && byte <= 0x7A }
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        for (index, byte) in bytes.enumerated() {
            if byte == 0x20 || byte == 0x2D || byte == 0x2E || byte == underscore {
                if !result.isEmpty && result.last != underscore { result.append(underscore) }
                continue
            }
            if isUpper(byte), index > 0, !result.isEmpty, result.last != underscore {
                let previous = bytes[index - 1]
                let nextIsLower = index + 1 < bytes.count && isLower(bytes[index + 1])
                let pluralAcronym = index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "s")
                    && !(index + 2 < bytes.count && isLower(bytes[index + 2]))
                if isLower(previous) || isDigit(previous) || (isUpper(previous) && nextIsLower && !pluralAcronym) {
                    result.append(underscore)
                }
            }
            result.append(isUpper(byte) ? byte + 32 : byte)
        }
        while result.last == underscore { result.removeLast() }
        return String(decoding: result, as: UTF8.self)
    }
}
