import Foundation

/// A JSON value as a page posted it, before it is checked against the plan: numbers
/// keep whether they were whole, so an `int` parameter takes `3` and refuses `3.5`.
enum JSONValue: Sendable, Hashable, Decodable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// `a string`, `an object`…: for messages, never the value.
    var typeDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a bool"
        case .int: "an int"
        case .double: "a double"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
