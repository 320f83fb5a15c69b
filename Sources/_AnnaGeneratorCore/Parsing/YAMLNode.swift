/// A YAML node with the place it was written, produced by ``YAMLParser``.
///
/// Aliases are already resolved to copies of their anchored node, and merge keys
/// (`<<: *base`) already merged, so later stages see plain data.
package struct YAMLNode: Sendable, Hashable {
    /// How a scalar was written; quoted scalars are always strings.
    package enum ScalarStyle: Sendable, Hashable {
        /// Written without quotes; its type is resolved by the YAML 1.2 core schema.
        case plain
        /// Written with quotes, as a block scalar, or tagged `!!str`.
        case string
    }

    /// The node's content.
    package enum Content: Sendable, Hashable {
        /// A scalar's text and style.
        case scalar(String, ScalarStyle)
        /// A sequence's items.
        case sequence([YAMLNode])
        /// A mapping's entries in file order.
        case mapping([YAMLPair])
    }

    /// The node's content.
    package var content: Content
    /// Where the node starts.
    package var location: SourceLocation
    /// How many nodes this node holds, itself included; bounds alias expansion.
    var size: Int

    init(_ content: Content, at location: SourceLocation, size: Int = 1) {
        self.content = content
        self.location = location
        self.size = size
    }
}

/// A mapping entry: a key, always a scalar, and its value.
package struct YAMLPair: Sendable, Hashable {
    /// The key's text.
    package var key: String
    /// Where the key is written.
    package var keyLocation: SourceLocation
    /// The value.
    package var value: YAMLNode
}

extension YAMLNode {
    /// A name for the node's kind, for messages: "a string", "a mapping", …
    var kindDescription: String {
        switch content {
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        case .scalar:
            switch scalarValue {
            case .null: return "null"
            case .bool: return "a boolean"
            case .int: return "an integer"
            case .double: return "a number"
            case .string: return "a string"
            case .none: return "a scalar"
            }
        }
    }
}
