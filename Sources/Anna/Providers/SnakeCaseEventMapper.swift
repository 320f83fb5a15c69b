import AnnaRules

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
    /// letter (`URLOpened` → `url_opened`) unless that letter is a plural `s`
    /// ending the word (`productIDs` → `product_ids`), and at spaces, hyphens and dots, which
    /// become underscores. Digits stay with the word before them (`categoryID2` →
    /// `category_id2`).
    /// - Parameter name: The name to convert.
    /// - Returns: The name in lowercase snake case.
    package static func snakeCase(_ name: String) -> String {
        SnakeCase.convert(name)
    }
}
