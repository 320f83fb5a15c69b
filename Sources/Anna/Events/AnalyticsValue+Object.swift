/// Reading the properties of an object value: what the `init?(analyticsValue:)` of a
/// generated struct calls, so a task's `$value(keyPath)` can hold an object.
extension [String: AnalyticsValue] {
    /// A required property of an object.
    /// - Parameters:
    ///   - key: The property's name as the spec declares it.
    ///   - type: The Swift type to read it as.
    /// - Returns: The value, or `nil` when it is missing or of another type.
    public func decoded<Property: AnalyticsValueRepresentable>(_ key: String, as type: Property.Type) -> Property? {
        self[key].flatMap(Property.init(analyticsValue:))
    }

    /// An optional property of an object.
    /// - Parameters:
    ///   - key: The property's name as the spec declares it.
    ///   - type: The Swift type to read it as.
    /// - Returns: `.some(nil)` when the property is missing, `.some(value)` when it
    ///   converts, and `nil` when it is of another type, so the object does not convert.
    public func decodedIfPresent<Property: AnalyticsValueRepresentable>(_ key: String, as type: Property.Type) -> Property?? {
        guard let value = self[key] else { return .some(nil) }
        guard let converted = Property(analyticsValue: value) else { return nil }
        return .some(converted)
    }
}
