import Foundation

/// A node of a focus path: what a task reads to decide what happened.
///
/// Nodes are created by analyzers as events are recorded; a node's path is the
/// chain of names from the root, the way the user's focus went:
/// `/master/tableView/cell/detail`. A node is identified by its parent and its key
/// (name, index, section), so a table cell's node keeps its values and visibility
/// when the cell object is reused for another row and back.
///
/// Read nodes inside a task's closure only. Tasks run without the manager's lock
/// held; each read takes it, so a read sees the node between two events, and
/// ``latestEvent()`` inside a task is the event that triggered it.
// @unchecked: every `var` is read and written under `Manager.lock` (asserted where documented).
public final class Node: @unchecked Sendable {
    /// The node's name: the key its super analyzer gave or the standalone name.
    public let nodeName: String
    /// The index among the siblings added by ``Analyzing/setSubAnalyzers(_:for:)``
    /// or a table's rows; `nil` for keyed nodes.
    public var index: Int? { rawIndex == .min ? nil : rawIndex }
    /// The section, for table rows; `nil` otherwise.
    public var section: Int? { rawSection == .min ? nil : rawSection }
    // `Int.min` for `nil`: 8 bytes each, where `Int?` takes 16 in the object.
    private let rawIndex: Int
    private let rawSection: Int
    /// The parent node; `nil` for the root.
    public private(set) weak var parentNode: Node?
    /// The names from the root's child down to this node, built when read (a node
    /// stores its own name only, to stay small).
    package var names: [String] {
        var names: [String] = []
        collectNames(into: &names)
        return names
    }
    /// When the node was created, by the manager's clock.
    public let createdAt: Date
    /// A number unique within the manager, for snapshots.
    var serial: Int { Int(storedSerial) }
    /// 32 bits, sharing 8 bytes with the flag below: a manager would have to create
    /// four billion nodes before two shared one.
    private let storedSerial: UInt32
    /// Set when the node's branch was detached or reloaded.
    var isRemoved = false
    /// Whether the latest visibility event was ``FocusEvent/Name/appeared``: it set
    /// `appearedAt` and cleared `disappearedAt`, and a disappearance sets it again.
    private var visible: Bool { appearedAt.isSet && !disappearedAt.isSet }

    /// The node's path from the root: `/master/tableView/cell`; `/` for the root.
    /// Built when read rather than stored: most nodes are never asked for it.
    public var path: String { "/" + names.joined(separator: "/") }

    struct Key: Hashable {
        var name: String
        var index: Int?
        var section: Int?
    }

    /// The node's key under its parent.
    var key: Key { Key(name: nodeName, index: index, section: section) }

    /// The children and the rows a reused cell left; allocated with the first child,
    /// as most nodes (table rows) have none.
    private var family: Family?
    /// The analyzer bound to the node now, by identity: the analyzer clears it when it
    /// moves to another node or goes away. Not a weak reference, which would give every
    /// row's analyzer a side table (48 bytes a row).
    var analyzerID: ObjectIdentifier?
    /// How many indexed children without an analyzer a node keeps (rows a reused
    /// cell left, with their values and visibility); older ones are freed.
    static let idleChildLimit = 256

    /// The latest event, kept inline: most nodes have one or two.
    private var latest: FocusEvent?
    /// The events before it, values, and the first appearance once the node appeared
    /// again; allocated with the second event or the first value.
    private var history: History?
    private static let recentCapacity = 10
    // Times as `OptionalTime`: 8 bytes each, where `Date?` takes 16.
    private var appearedAt = OptionalTime()
    private var disappearedAt = OptionalTime()

    private final class Family {
        var children = ChildTable()
        /// Indexed children whose analyzer moved to another row, oldest first.
        var idle: [Key] = []
        /// The analyzer below this node marked focused last (``Analyzing/markFocused()``):
        /// where a redirect through this node's analyzer leads.
        weak var focused: Analyzer?
    }

    /// What a node holds beyond its latest event, in one allocation.
    private final class History {
        /// A ring of up to `recentCapacity - 1` events, oldest first from `start`.
        var events: [FocusEvent]
        var start = 0
        var values: [String: AnalyticsValue] = [:]
        /// The event that first showed each value.
        var firstDisplayed: [String: FocusEvent] = [:]
        /// When the node first appeared, kept once it appeared again (until then it
        /// is the node's `appearedAt`).
        var firstAppearedAt = OptionalTime()

        init() {
            events = []
            events.reserveCapacity(Node.recentCapacity - 1)
        }

        func append(_ event: FocusEvent) {
            if events.count < Node.recentCapacity - 1 {
                events.append(event)
            } else {
                events[start] = event
                start = (start + 1) % events.count
            }
        }

        var ordered: [FocusEvent] { Array(events[start...] + events[..<start]) }
    }

    /// The history, created on first use (under the lock).
    private func makeHistory() -> History {
        Manager.lock.assertHeld()
        if let history { return history }
        let created = History()
        history = created
        return created
    }

    /// When the first ``FocusEvent/Name/appeared`` event was recorded: that event, as
    /// only its time differs from one appeared event to another.
    private var firstDisplayedAt: Date? {
        history?.firstAppearedAt.date ?? appearedAt.date
    }

    /// The children (under the lock).
    var children: ChildTable {
        Manager.lock.assertHeld()
        return family?.children ?? ChildTable()
    }

    /// The analyzer below marked focused last; only nodes with children have one.
    var focusedAnalyzer: Analyzer? {
        get { family?.focused }
        set { family?.focused = newValue }
    }
    /// Children in creation order (by serial), for snapshots.
    var orderedChildren: [Node] { children.nodes.sorted { $0.serial < $1.serial } }

    init(name: String, index: Int?, section: Int?, parent: Node?, createdAt: Date, serial: Int) {
        self.nodeName = name
        self.rawIndex = index ?? .min
        self.rawSection = section ?? .min
        self.parentNode = parent
        self.createdAt = createdAt
        self.storedSerial = UInt32(truncatingIfNeeded: serial)
    }

    /// Fills `names` with ``names``, reusing its storage.
    func collectNames(into names: inout [String]) {
        names.removeAll(keepingCapacity: true)
        var node = self
        while let parent = node.parentNode {
            names.append(node.nodeName)
            node = parent
        }
        names.reverse()
    }

    /// The node `distance` levels up: itself for 0, the parent for 1.
    public func ancestor(_ distance: Int) -> Node? {
        var node: Node? = self
        var remaining = distance
        while remaining > 0, let current = node {
            node = current.parentNode
            remaining -= 1
        }
        return node
    }

    /// The latest event recorded on the node: inside a task, the one that triggered it.
    public func latestEvent() -> FocusEvent? {
        if let running = RunningTasks.existing?.stack.last, running.node === self { return running.event }
        return Manager.lock.withLock { lastRecorded }
    }

    /// The latest event applied to the node (under the lock).
    private var lastRecorded: FocusEvent? {
        Manager.lock.assertHeld()
        return latest
    }

    /// The latest value recorded for a key path; `nil` if none or cleared.
    public func latestValue(_ keyPath: String) -> AnalyticsValue? {
        Manager.lock.withLock { history?.values[keyPath] }
    }

    /// Whether the latest visibility event was ``FocusEvent/Name/appeared``.
    public func isVisible() -> Bool { Manager.lock.withLock { visible } }

    /// The first ``FocusEvent/Name/appeared`` event of the node.
    public func firstDisplayedEvent() -> FocusEvent? {
        Manager.lock.withLock { firstDisplayedAt.map { FocusEvent(name: .appeared, time: $0) } }
    }

    /// The event that first showed the current value of a key path: the
    /// ``FocusEvent/Name/appeared`` event if the value was there when the node
    /// appeared, or the ``FocusEvent/Name/updated`` event if it changed while the node
    /// was visible. `nil` while the current value has not been on screen.
    public func valueFirstDisplayedEvent(_ keyPath: String) -> FocusEvent? {
        Manager.lock.withLock { history?.firstDisplayed[keyPath] }
    }

    /// Seconds on screen: since the node appeared, up to the latest event, while it
    /// is visible; the length of the last visible period once it disappeared; 0 if it
    /// never appeared.
    public var visibleDuration: TimeInterval {
        Manager.lock.withLock {
            guard let appearedAt = appearedAt.date else { return 0 }
            let end = visible ? (lastRecorded?.time ?? appearedAt) : (disappearedAt.date ?? appearedAt)
            return max(0, end.timeIntervalSince(appearedAt))
        }
    }

    /// The ten latest events, oldest first.
    public func recentEvents() -> [FocusEvent] {
        Manager.lock.withLock {
            guard let latest else { return [] }
            return (history?.ordered ?? []) + [latest]
        }
    }

    /// The key paths with a value, sorted.
    var valueKeyPaths: [String] { Manager.lock.withLock { history?.values.keys.sorted() ?? [] } }

    /// Records an event: the history, values and visibility.
    func apply(_ event: FocusEvent) {
        if let previous = latest { makeHistory().append(previous) }
        latest = event
        switch event.name {
        case .appeared:
            if !visible {
                if appearedAt.isSet {
                    let history = makeHistory()
                    if !history.firstAppearedAt.isSet { history.firstAppearedAt = appearedAt }
                }
                appearedAt.date = event.time
                disappearedAt.date = nil
            }
            if let history {
                for keyPath in history.values.keys where history.firstDisplayed[keyPath] == nil {
                    history.firstDisplayed[keyPath] = event
                }
            }
        case .disappeared:
            if visible {
                disappearedAt.date = event.time
            }
        case .updated:
            guard let keyPath = event.keyPath else { break }
            if let value = event.value {
                let state = makeHistory()
                if state.values.updateValue(value, forKey: keyPath) != value {
                    state.firstDisplayed[keyPath] = visible ? event : nil
                }
            } else if let history {
                history.values[keyPath] = nil
                history.firstDisplayed[keyPath] = nil
            }
        default:
            break
        }
    }

    /// The child for a key, created on first use.
    func child(_ key: Key, createdAt: Date, serial: () -> Int) -> Node {
        if let existing = family?.children[key] { return existing }
        let node = Node(name: key.name, index: key.index, section: key.section, parent: self, createdAt: createdAt, serial: serial())
        let family = self.family ?? Family()
        self.family = family
        family.children.insert(node, for: key)
        return node
    }

    /// Notes that an indexed child's analyzer moved on; frees the child that became
    /// idle longest ago once more than ``idleChildLimit`` are, if it is still idle and
    /// has no children.
    func childBecameIdle(_ key: Key) {
        guard let family else { return }
        family.idle.append(key)
        guard family.idle.count > Self.idleChildLimit else { return }
        let oldest = family.idle.removeFirst()
        guard let node = family.children[oldest], node.children.isEmpty else { return }
        if node.analyzerID != nil { return }
        removeChild(oldest)
    }

    /// Removes a child's branch, marking every node in it removed.
    func removeChild(_ key: Key) {
        family?.children.remove(key)?.markRemoved()
    }

    /// Removes every child named `name`, whatever its index.
    func removeChildren(named name: String) {
        for node in family?.children.removeAll(named: name) ?? [] { node.markRemoved() }
    }

    private func markRemoved() {
        isRemoved = true
        for node in children.nodes { node.markRemoved() }
    }
}
