import AnnaRules

extension YAMLNode {
    /// The scalar's value, or `nil` for a sequence or a mapping.
    package var scalarValue: ScalarValue? {
        guard case .scalar(let text, let style) = content else { return nil }
        guard style == .plain else { return .string(text) }
        return ScalarValue.resolvePlain(text)
    }
}
