import AnnaRules

/// How a generated client names what it sends: as the spec writes it, or as the
/// runtime's `SnakeCaseEventMapper` maps it (events, screens and every property key,
/// at every depth), by the same rule (AnnaRules' `SnakeCase`), so the TypeScript and
/// Kotlin clients put on the wire what a Swift app with that mapper does.
package enum WireNaming: String, Sendable, Hashable, CaseIterable {
    /// The spec's names.
    case spec
    /// snake_case, as `SnakeCaseEventMapper` maps them.
    case snakeCase = "snake_case"

    /// The name sent for a spec name.
    package func callAsFunction(_ name: String) -> String {
        switch self {
        case .spec: name
        case .snakeCase: SnakeCase.convert(name)
        }
    }
}
