import Foundation

/// A typed parameter value of an ``AnalyticsEvent``.
///
/// Generated factories build these from the Swift types a tracking spec declares,
/// so a provider receives the value with its type intact: an `int` parameter stays
/// an integer, a `date` stays a date. Providers that only take strings convert at
/// the edge.
public enum AnalyticsValue: Sendable, Hashable {
    /// Text.
    case string(String)
    /// A whole number.
    case int(Int)
    /// A floating-point number.
    case double(Double)
    /// A truth value.
    case bool(Bool)
    /// A point in time.
    case date(Date)
    /// A URL.
    case url(URL)
    /// A UUID.
    case uuid(UUID)
    /// An ordered list of values.
    case array([AnalyticsValue])
    /// Named values: a value of an object type a spec declares under `types:` with
    /// `properties:`, e.g. a product. A list of objects is an ``array(_:)`` of these.
    case object([String: AnalyticsValue])
}

extension AnalyticsValue: CustomStringConvertible {
    /// The value as a provider that only takes text would show it: ISO 8601 dates,
    /// absolute URLs, uppercase UUIDs, comma-separated arrays, and objects as
    /// `{key: value, …}` sorted by key.
    public var description: String {
        switch self {
        case .string(let value): value
        case .int(let value): String(value)
        case .double(let value): String(value)
        case .bool(let value): value ? "true" : "false"
        case .date(let value): value.formatted(.iso8601)
        case .url(let value): value.absoluteString
        case .uuid(let value): value.uuidString
        case .array(let values): values.map(\.description).joined(separator: ",")
        case .object(let fields):
            "{" + fields.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
        }
    }
}

extension AnalyticsValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral
{
    /// Creates a ``string(_:)`` value.
    public init(stringLiteral value: String) { self = .string(value) }
    /// Creates an ``int(_:)`` value.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// Creates a ``double(_:)`` value.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// Creates a ``bool(_:)`` value.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// Creates an ``array(_:)`` value.
    public init(arrayLiteral elements: AnalyticsValue...) { self = .array(elements) }
}
