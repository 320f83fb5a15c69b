/// A node's children, keyed by name, index and section, stored small: keyed children
/// by name, and indexed children (table rows, which can be many) per name in a
/// table of 16-byte row keys, where one table of full keys would take 48 bytes a
/// row and hold a copy of the name in each.
struct ChildTable {
    /// An index and a section in 16 bytes; `Int.min` stands for no section.
    private struct RowKey: Hashable {
        var index: Int
        var section: Int

        init(index: Int, section: Int?) {
            self.index = index
            self.section = section ?? .min
        }
    }

    /// The rows of one name. A class, so that changing a row changes the table in
    /// place: a dictionary nested in a dictionary is copied when changed through
    /// optional chaining.
    private final class Rows {
        var nodes: [RowKey: Node] = [:]
    }

    private var keyed: [String: Node] = [:]
    private var rows: [String: Rows] = [:]

    /// Whether there is no child.
    var isEmpty: Bool { keyed.isEmpty && rows.isEmpty }

    /// The child for a key.
    subscript(key: Node.Key) -> Node? {
        guard let index = key.index else { return keyed[key.name] }
        return rows[key.name]?.nodes[RowKey(index: index, section: key.section)]
    }

    /// Adds or replaces the child for a key.
    mutating func insert(_ node: Node, for key: Node.Key) {
        if let index = key.index {
            let named = rows[key.name] ?? Rows()
            rows[key.name] = named
            named.nodes[RowKey(index: index, section: key.section)] = node
        } else {
            keyed[key.name] = node
        }
    }

    /// Removes the child for a key and returns it.
    mutating func remove(_ key: Node.Key) -> Node? {
        guard let index = key.index else { return keyed.removeValue(forKey: key.name) }
        guard let named = rows[key.name],
            let node = named.nodes.removeValue(forKey: RowKey(index: index, section: key.section))
        else { return nil }
        if named.nodes.isEmpty { rows[key.name] = nil }
        return node
    }

    /// Removes every child named `name`, keyed or indexed, and returns them.
    mutating func removeAll(named name: String) -> [Node] {
        var removed: [Node] = []
        if let node = keyed.removeValue(forKey: name) { removed.append(node) }
        if let named = rows.removeValue(forKey: name) { removed.append(contentsOf: named.nodes.values) }
        return removed
    }

    /// Every child, in no particular order.
    var nodes: [Node] {
        var nodes = Array(keyed.values)
        for named in rows.values { nodes.append(contentsOf: named.nodes.values) }
        return nodes
    }
}
