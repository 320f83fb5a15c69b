import Foundation

/// A type that converts to and from an ``AnalyticsValue``: what a task reads back
/// from a node with `Node.value(_:as:)` (AnnaFocusPaths). Generated enums conform.
public protocol AnalyticsValueRepresentable: AnalyticsValueConvertible {
    /// Creates the value, or `nil` when the analytics value is of another type.
    init?(analyticsValue: AnalyticsValue)
}

extension String: AnalyticsValueRepresentable {
    /// A string value.
    public init?(analyticsValue: AnalyticsValue) {
        guard case .string(let value) = analyticsValue else { return nil }
        self = value
    }
}

extension Int: AnalyticsValueRepresentable {
    /// An integer value.
    public init?(analyticsValue: AnalyticsValue) {
        guard case .int(let value) = analyticsValue else { return nil }
        self = value
    }
}

extension Double: AnalyticsValueRepresentable {
    /// A double, or an integer widened.
    public init?(analyticsValue: AnalyticsValue) {
        switch analyticsValue {
        case .double(let value): self = value
        case .int(let value): self = Double(value)
        default: return nil
        }
    }
}

extension Bool: AnalyticsValueRepresentable {
    /// A Boolean value.
    public init?(analyticsValue: AnalyticsValue) {
        guard case .bool(let value) = analyticsValue else { return nil }
        self = value
    }
}

extension Date: AnalyticsValueRepresentable {
    /// A date value.
    public init?(analyticsValue: AnalyticsValue) {
        guard case .date(let value) = analyticsValue else { return nil }
        self = value
    }
}

extension URL: AnalyticsValueRepresentable {
    /// A URL, or a string that is an absolute URL.
    public init?(analyticsValue: AnalyticsValue) {
        switch analyticsValue {
        case .url(let value): self = value
        case .string(let text):
            guard let url = URL(string: text), url.scheme != nil else { return nil }
            self = url
        default: return nil
        }
    }
}

extension UUID: AnalyticsValueRepresentable {
    /// A UUID, or a string that is one.
    public init?(analyticsValue: AnalyticsValue) {
        switch analyticsValue {
        case .uuid(let value): self = value
        case .string(let text):
            guard let uuid = UUID(uuidString: text) else { return nil }
            self = uuid
        default: return nil
        }
    }
}

extension Array: AnalyticsValueRepresentable where Element: AnalyticsValueRepresentable {
    /// An array whose every element converts.
    public init?(analyticsValue: AnalyticsValue) {
        guard case .array(let values) = analyticsValue else { return nil }
        var result: [Element] = []
        result.reserveCapacity(values.count)
        for value in values {
            guard let element = Element(analyticsValue: value) else { return nil }
            result.append(element)
        }
        self = result
    }
}

extension AnalyticsValueRepresentable where Self: RawRepresentable, RawValue == String {
    /// A case, from its raw value.
    public init?(analyticsValue: AnalyticsValue) {
        guard case .string(let raw) = analyticsValue else { return nil }
        self.init(rawValue: raw)
    }
}

extension AnalyticsValue {
    /// `a string`, `an int`…: for error messages.
    package var typeDescription: String {
        switch self {
        case .string: "a string"
        case .int: "an int"
        case .double: "a double"
        case .bool: "a bool"
        case .date: "a date"
        case .url: "a url"
        case .uuid: "a uuid"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
