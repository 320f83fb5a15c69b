/// Tasks indexed so that matching a recorded event costs the same with ten tasks
/// or ten thousand: by event name, then in a trie over each pattern's node
/// components read from the end (`cell`, then `tableView`, then `master`), with one
/// edge for `*` and a stop at `**`. A lookup walks the node's names up from the node
/// once, following the name's edge and the `*` edge, and checks the few tasks stored
/// on the way against the whole pattern.
final class TaskIndex {
    private final class Trie {
        var children: [String: Trie] = [:]
        var any: Trie?
        var patterns: [(order: Int, pattern: FocusPattern)] = []

        /// The child for a name, created on first use.
        func child(_ name: String) -> Trie {
            if let next = children[name] { return next }
            let next = Trie()
            children[name] = next
            return next
        }

        /// The `*` child, created on first use.
        func anyChild() -> Trie {
            if let any { return any }
            let next = Trie()
            any = next
            return next
        }
    }

    private var roots: [String: Trie] = [:]
    private(set) var all: [FocusTask] = []
    /// Positions of matching tasks, reused between lookups.
    private var scratch: [Int] = []
    /// The node's names, reused between lookups.
    private var nameScratch: [String] = []

    func insert(_ task: FocusTask) {
        let order = all.count
        all.append(task)
        for pattern in task.patterns { insert(pattern, order: order) }
    }

    private func insert(_ pattern: FocusPattern, order: Int) {
        var trie = roots[pattern.event] ?? Trie()
        roots[pattern.event] = trie
        for component in pattern.nodes.reversed() {
            switch component {
            case .name(let name):
                trie = trie.child(name)
            case .any:
                trie = trie.anyChild()
            case .anyDepth:
                trie.patterns.append((order, pattern))
                return
            }
        }
        trie.patterns.append((order, pattern))
    }

    /// Calls `body` with each task that has a pattern matching the node and event,
    /// once, in the order the tasks were registered.
    func forEachMatch(event: String, node: Node, _ body: (FocusTask) -> Void) {
        guard let root = roots[event] else { return }
        // A task's action may record another event (re-entering under the recursive
        // lock), so the buffer is taken out while in use.
        var matches = scratch
        scratch = []
        matches.removeAll(keepingCapacity: true)
        var names = nameScratch
        nameScratch = []
        node.collectNames(into: &names)
        Self.collect(root, names: names, depth: 0, into: &matches)
        nameScratch = names
        if matches.count > 1 { matches.sort() }
        var previous = -1
        for order in matches where order != previous {
            previous = order
            body(all[order])
        }
        matches.removeAll(keepingCapacity: true)
        scratch = matches
    }

    private static func collect(_ trie: Trie, names: [String], depth: Int, into matches: inout [Int]) {
        for (order, pattern) in trie.patterns where pattern.matches(names: names) {
            matches.append(order)
        }
        guard depth < names.count else { return }
        let name = names[names.count - 1 - depth]
        if let next = trie.children[name] { collect(next, names: names, depth: depth + 1, into: &matches) }
        if let next = trie.any { collect(next, names: names, depth: depth + 1, into: &matches) }
    }
}
