@_spi(Generated) import Anna
import Foundation

extension WebContentBridge {
    /// A page's value as the parameter's kind reads it: for a date, an ISO 8601 string
    /// (JavaScript's `toISOString()`) as a date; for an object type, its date
    /// properties too, when the object does not convert with them as strings. `nil`
    /// when it holds a `null` where a value is needed.
    static func value(_ json: JSONValue, for parameter: ParameterDescriptor) -> AnalyticsValue? {
        switch parameter.kind {
        case .date:
            return plain(json, datesFromStrings: true)
        case .object:
            guard let value = plain(json, datesFromStrings: false) else { return nil }
            if parameter.accepts(value) { return value }
            return plain(json, datesFromStrings: true) ?? value
        default:
            return plain(json, datesFromStrings: false)
        }
    }

    private static func plain(_ json: JSONValue, datesFromStrings: Bool) -> AnalyticsValue? {
        switch json {
        case .null: return nil
        case .bool(let flag): return .bool(flag)
        case .int(let number): return .int(number)
        case .double(let number): return .double(number)
        case .string(let text):
            if datesFromStrings, let date = ISO8601Timestamp.date(from: text) { return .date(date) }
            return .string(text)
        case .array(let elements):
            var values: [AnalyticsValue] = []
            values.reserveCapacity(elements.count)
            for element in elements {
                guard let value = plain(element, datesFromStrings: datesFromStrings) else { return nil }
                values.append(value)
            }
            return .array(values)
        case .object(let fields):
            var values: [String: AnalyticsValue] = [:]
            values.reserveCapacity(fields.count)
            for (key, field) in fields where field != .null {
                guard let value = plain(field, datesFromStrings: datesFromStrings) else { return nil }
                values[key] = value
            }
            return .object(values)
        }
    }

    /// The path of a key a page gave inside an object that the object type does not
    /// declare (the typed conversion leaves it out), or `nil`.
    static func undeclaredKey(in json: JSONValue, keptAs value: AnalyticsValue?, at path: String) -> String? {
        switch (json, value) {
        case (.object(let fields), .object(let kept)?):
            for (key, field) in fields.sorted(by: { $0.key < $1.key }) where field != .null {
                guard let inner = kept[key] else { return path + "/" + key }
                if let found = undeclaredKey(in: field, keptAs: inner, at: path + "/" + key) { return found }
            }
        case (.array(let elements), .array(let kept)?) where elements.count == kept.count:
            for (element, inner) in zip(elements, kept) {
                if let found = undeclaredKey(in: element, keptAs: inner, at: path) { return found }
            }
        default:
            break
        }
        return nil
    }
}
