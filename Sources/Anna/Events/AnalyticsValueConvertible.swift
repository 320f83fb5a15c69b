import Foundation

/// A Swift value that has an ``AnalyticsValue`` form.
///
/// Generated factories call ``analyticsValue`` on every argument, which keeps the
/// generated code short and fast to type-check. `String`-backed enums, including the
/// ones generated from a spec's `types:`, conform through their raw value.
public protocol AnalyticsValueConvertible {
    /// The value as an event parameter.
    var analyticsValue: AnalyticsValue { get }
}

extension AnalyticsValue: AnalyticsValueConvertible {
    /// The value itself.
    public var analyticsValue: AnalyticsValue { self }
}

extension String: AnalyticsValueConvertible {
    /// The string as a ``AnalyticsValue/string(_:)`` value.
    public var analyticsValue: AnalyticsValue { .string(self) }
}

extension Int: AnalyticsValueConvertible {
    /// The integer as an ``AnalyticsValue/int(_:)`` value.
    public var analyticsValue: AnalyticsValue { .int(self) }
}

extension Double: AnalyticsValueConvertible {
    /// The number as a ``AnalyticsValue/double(_:)`` value.
    public var analyticsValue: AnalyticsValue { .double(self) }
}

extension Bool: AnalyticsValueConvertible {
    /// The truth value as a ``AnalyticsValue/bool(_:)`` value.
    public var analyticsValue: AnalyticsValue { .bool(self) }
}

extension Date: AnalyticsValueConvertible {
    /// The date as a ``AnalyticsValue/date(_:)`` value.
    public var analyticsValue: AnalyticsValue { .date(self) }
}

extension URL: AnalyticsValueConvertible {
    /// The URL as a ``AnalyticsValue/url(_:)`` value.
    public var analyticsValue: AnalyticsValue { .url(self) }
}

extension UUID: AnalyticsValueConvertible {
    /// The UUID as a ``AnalyticsValue/uuid(_:)`` value.
    public var analyticsValue: AnalyticsValue { .uuid(self) }
}

extension Array: AnalyticsValueConvertible where Element: AnalyticsValueConvertible {
    /// The elements as an ``AnalyticsValue/array(_:)`` value.
    public var analyticsValue: AnalyticsValue { .array(map(\.analyticsValue)) }
}

extension AnalyticsValueConvertible where Self: RawRepresentable, RawValue == String {
    /// The raw value as a ``AnalyticsValue/string(_:)`` value.
    public var analyticsValue: AnalyticsValue { .string(rawValue) }
}
