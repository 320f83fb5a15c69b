/// The limits a spec declared for one parameter's values.
///
/// For an array parameter the limits apply to each element.
public struct ParameterConstraint: Sendable, Hashable, Codable {
    /// The smallest number allowed.
    public var min: Double?
    /// The largest number allowed.
    public var max: Double?
    /// The fewest characters a string may have.
    public var minLength: Int?
    /// The most characters a string may have.
    public var maxLength: Int?
    /// A regular expression a string must match.
    public var pattern: String?
    /// The strings allowed, for a parameter declared with an inline `enum`.
    public var allowedValues: [String]?

    /// Creates a constraint; every limit is optional.
    /// - Parameters:
    ///   - min: The smallest number allowed.
    ///   - max: The largest number allowed.
    ///   - minLength: The fewest characters a string may have.
    ///   - maxLength: The most characters a string may have.
    ///   - pattern: A regular expression a string must match.
    ///   - allowedValues: The strings allowed.
    public init(
        min: Double? = nil,
        max: Double? = nil,
        minLength: Int? = nil,
        maxLength: Int? = nil,
        pattern: String? = nil,
        allowedValues: [String]? = nil
    ) {
        self.min = min
        self.max = max
        self.minLength = minLength
        self.maxLength = maxLength
        self.pattern = pattern
        self.allowedValues = allowedValues
    }
}
