/// A category of tracking the user grants or denies consent for.
///
/// A spec names it per event with `consent:`; events default to ``analytics``.
public struct ConsentCategory: RawRepresentable, Sendable, Hashable, Codable,
    ExpressibleByStringLiteral, CustomStringConvertible
{
    /// The category's name as written in the spec.
    public var rawValue: String

    /// Creates a category from its name.
    /// - Parameter rawValue: The category's name.
    public init(rawValue: String) { self.rawValue = rawValue }

    package init(_ rawValue: String) { self.rawValue = rawValue }

    /// Creates a category from a string literal.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// The category's name.
    public var description: String { rawValue }

    /// Product analytics: usage and funnels. The default.
    public static let analytics: ConsentCategory = "analytics"
    /// Advertising and attribution.
    public static let marketing: ConsentCategory = "marketing"
    /// What the app needs to work; consent is usually implied.
    public static let necessary: ConsentCategory = "necessary"
}
