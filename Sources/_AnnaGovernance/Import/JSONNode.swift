import _AnnaGeneratorCore
/// A JSON value with where it is written, so an import can point at the part of a
/// plan it could not carry over. Foundation's `JSONSerialization` keeps no positions.
package struct JSONNode: Sendable, Hashable {
    /// What the value is.
    package enum Content: Sendable, Hashable {
        /// `null`.
        case null
        /// `true` or `false`.
        case bool(Bool)
        /// A number, with its text as written (`1`, `2.50`, `1e3`).
        case number(Double, text: String)
        /// A string.
        case string(String)
        /// An array.
        case array([JSONNode])
        /// An object's members in file order; a duplicate key is kept as written.
        case object([JSONMember])
    }

    /// What the value is.
    package var content: Content
    /// Where the value starts.
    package var location: SourceLocation

    /// Creates a node.
    package init(_ content: Content, at location: SourceLocation) {
        self.content = content
        self.location = location
    }
}

/// One `"key": value` of a JSON object.
package struct JSONMember: Sendable, Hashable {
    /// The key.
    package var key: String
    /// Where the key is written.
    package var keyLocation: SourceLocation
    /// The value.
    package var value: JSONNode
}

extension JSONNode {
    /// The member named `key` of an object (the last, if written twice, as JavaScript's
    /// `JSON.parse`, which Typewriter uses, keeps it); `nil` for other values.
    package subscript(key: String) -> JSONNode? {
        guard case .object(let members) = content else { return nil }
        return members.last { $0.key == key }?.value
    }

    /// The members of an object; `nil` for other values.
    package var members: [JSONMember]? {
        if case .object(let members) = content { return members }
        return nil
    }

    /// The elements of an array; `nil` for other values.
    package var elements: [JSONNode]? {
        if case .array(let elements) = content { return elements }
        return nil
    }

    /// The text of a string; `nil` for other values.
    package var string: String? {
        if case .string(let text) = content { return text }
        return nil
    }

    /// The value of a number; `nil` for other values.
    package var number: Double? {
        if case .number(let value, _) = content { return value }
        return nil
    }

    /// The value of `true` or `false`; `nil` for other values.
    package var bool: Bool? {
        if case .bool(let value) = content { return value }
        return nil
    }

    /// How messages name the kind of value: `an object`, `a string`.
    package var kindDescription: String {
        switch content {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
