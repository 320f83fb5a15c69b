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
    /// A regular expression a string must match somewhere (anchor it with `^` and
    /// `$` to match the whole string).
    ///
    /// Anna matches patterns with its own engine, in time linear in the pattern and
    /// the string, so no pattern or value can stall the service. It supports literals,
    /// `.`, `\d \w \s \D \W \S`, `\t \n \r \f`, `\xhh`, `\x{h…}`, `\uhhhh`, escaped
    /// punctuation, classes (`[a-z0-9_]`, `[^…]`), `^`, `$`, groups (`( )`, `(?: )`,
    /// `(?<name> )`), `|`, and `* + ? {m} {m,} {m,n}` (counts up to 1000) with their
    /// lazy forms. A string longer than 4096 characters is not matched and counts
    /// as a violation. A pattern using anything else (backreferences, lookaround,
    /// flags, `\b`, `\p{…}`) or too large to match quickly is reported once, as a
    /// violation of the first event checked against it, and is not checked after.
    /// Specs get these checks at build time, and patterns that would stall
    /// backtracking engines, such as `(a+)+`, are rejected there.
    public var pattern: String?
    /// The strings allowed, for a parameter declared with an inline `enum`.
    public var allowedValues: [String]?

    /// Creates a constraint; every limit is optional.
    /// - Parameters:
    ///   - min: The smallest number allowed.
    ///   - max: The largest number allowed.
    ///   - minLength: The fewest characters a string may have.
    ///   - maxLength: The most characters a string may have.
    ///   - pattern: A regular expression a string must match somewhere; see ``pattern``.
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

extension ParameterConstraint {
    /// Whether no limit is set.
    package var isEmpty: Bool {
        min == nil && max == nil && minLength == nil && maxLength == nil && pattern == nil && allowedValues == nil
    }
}
