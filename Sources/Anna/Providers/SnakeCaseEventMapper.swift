/// Maps camel-case names to snake case, as Firebase Analytics expects:
/// `categoryAdded` → `category_added`, `URLOpened` → `url_opened`,
/// `categoryID2` → `category_id2`.
///
/// The generator applies the same mapping when it checks a spec against a provider
/// profile, so a name that passes at build time passes at run time.
public struct SnakeCaseEventMapper: Sendable {
    /// Creates the mapper.
    public init() {}

    /// The snake-case form of an event name.
    /// - Parameter eventName: A name as declared in a spec.
    /// - Returns: The name in snake case.
    public func name(for eventName: String) -> String {
        Self.snakeCase(eventName)
    }

    /// The snake-case form of a parameter name.
    /// - Parameter parameterName: A name as declared in a spec.
    /// - Returns: The name in snake case.
    public func parameterName(for parameterName: String) -> String {
        Self.snakeCase(parameterName)
    }

    /// Converts a name to snake case.
    ///
    /// A word boundary falls before an uppercase letter that follows a lowercase
    /// letter or digit, before the last capital of an acronym followed by a lowercase
    /// letter (`URLOpened` → `url_opened`), and at spaces, hyphens and dots, which
    /// become underscores. Digits stay with the word before them (`categoryID2` →
    /// `category_id2`).
    /// - Parameter name: The name to convert.
    /// - Returns: The name in lowercase snake case.
    public static func snakeCase(_ name: String) -> String {
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
                let endsAcronym = previous.isUppercase && (next?.isLowercase ?? false)
                if afterLowerOrDigit || endsAcronym { result.append("_") }
            }
            result.append(contentsOf: character.lowercased())
        }
        while result.last == "_" { result.removeLast() }
        return result
    }
}
