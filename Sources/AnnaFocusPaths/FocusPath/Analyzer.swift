import Foundation

/// What objects call to put themselves on focus paths and record what happens to them.
public protocol Analyzing: AnyObject, Sendable {
    /// Gives the analyzer a standalone name and lets it record: its node is a child,
    /// named `name`, of the first analyzer found up the responder chain.
    func enable(naming name: String)
    /// Adds a keyed sub analyzer: its node is this analyzer's child named `key`.
    func setSubAnalyzer(_ sub: Analyzer, for key: String)
    /// Adds indexed sub analyzers: their nodes are children named `key` with indexes 0, 1…
    func setSubAnalyzers(_ subs: [Analyzer], for key: String)
    /// Records an event.
    func record(_ event: FocusEvent.Name)
    /// Records an ``FocusEvent/Name/updated`` event for a key path; `nil` clears the value.
    func update(_ value: (any AnalyticsValueConvertible)?, for keyPath: String)
    /// Stops recording, observing and firing; removes the node's branch and its state.
    func detach()
    /// Marks the analyzer focused, so screens reached from here land under it.
    func markFocused()
}

/// An object's analyzer: its node on the focus path and the events recorded there.
///
/// ```swift
/// final class MasterScreen: Screen {            // or a UIViewController
///     let tableView = Table()
///     override func viewDidLoad() {
///         analyzer.setSubAnalyzer(tableView.analyzer, for: "tableView")
///         analyzer.enable(naming: "master")
///     }
/// }
/// ```
/// The node is resolved at the first event: through the super analyzer for sub
/// analyzers, otherwise by walking the owner's responder chain (see
/// ``FocusPathConstituting``). Events recorded before it resolves wait in the
/// analyzer (up to 64) and are applied when it does. Every method may be called from
/// any thread.
// @unchecked: every `var` is read and written under `Manager.lock` (asserted where documented).
public class Analyzer: Analyzing, @unchecked Sendable {
    struct Binding {
        weak var superAnalyzer: Analyzer?
        var key: Node.Key
    }

    // All guarded by Manager.lock.
    private weak var owner: (any FocusPathConstituting)?
    var boundManager: Manager?
    private var standaloneName: String?
    private var binding: Binding?
    private var node: Node?
    private var pending: [FocusEvent] = []
    private var sparkEvents: [SparkEvent] = []
    private var isDetached = false
    /// Whether the manager knows this analyzer has Spark events, for snapshots.
    private var isSparkHolder = false
    private var observations: [ObservationHandle] = []
    static let pendingLimit = 64

    /// Creates an analyzer for an object.
    /// - Parameter owner: The object; held weakly.
    public init(owner: (any FocusPathConstituting)?) {
        self.owner = owner
    }

    /// Anna's spelling of ``init(owner:)``.
    public static func analyzer(with owner: any FocusPathConstituting) -> Analyzer {
        Analyzer(owner: owner)
    }

    /// Frees the node: an analyzer that goes away (its owner deallocated) takes its
    /// node's branch with it, unless another analyzer was bound there since.
    deinit {
        Manager.lock.withLock {
            guard let node, !node.isRemoved, node.analyzerID == ObjectIdentifier(self), let parent = node.parentNode else {
                return
            }
            parent.removeChild(node.key)
        }
    }

    var isRoot: Bool { false }

    /// The node bound now, without resolving (under the lock; read in loops, so the
    /// operations that read it check the lock once: `findHost()` and the snapshot, which
    /// takes it).
    var currentNode: Node? { node }

    /// Forgets the node, which forgets this analyzer if still bound to it (under the lock).
    private func unbindNode() {
        Manager.lock.assertHeld()
        if let node, node.analyzerID == ObjectIdentifier(self) { node.analyzerID = nil }
        node = nil
    }

    /// Tells the manager this analyzer has Spark events, once (under the lock).
    private func registerSparks() {
        Manager.lock.assertHeld()
        guard !isSparkHolder, !sparkEvents.isEmpty, let boundManager else { return }
        isSparkHolder = true
        // Analyzers that went away are dropped whenever the list doubles.
        if boundManager.sparkHolders.count >= 64, boundManager.sparkHolders.count.nonzeroBitCount == 1 {
            boundManager.sparkHolders.removeAll { $0.analyzer == nil }
        }
        boundManager.sparkHolders.append(WeakAnalyzer(analyzer: self))
    }

    /// Whether the analyzer has a name or a super analyzer, and so can be found by
    /// analyzers below it.
    package var isEnabled: Bool {
        Manager.lock.withLock { canHost }
    }

    /// Whether analyzers below may use this one as their host (under the lock; read in
    /// `findHost()`'s walk, which checks the lock once, and in ``isEnabled``, which takes it).
    private var canHost: Bool {
        isRoot || (!isDetached && (standaloneName != nil || binding != nil))
    }

    /// The node's path once resolved, e.g. `/master/tableView`; `nil` before.
    public var path: String? {
        Manager.lock.withLock { resolvedNode()?.path }
    }

    /// A super analyzer's key wins over a standalone name: an analyzer that was
    /// added with ``setSubAnalyzer(_:for:)`` keeps that place even if it also names itself.
    public func enable(naming name: String) {
        Manager.lock.withLock {
            guard !isDetached, standaloneName != name else { return }
            standaloneName = name
            if binding == nil { unbindNode() }
        }
    }

    public func setSubAnalyzer(_ sub: Analyzer, for key: String) {
        bind(sub, key: Node.Key(name: key, index: nil, section: nil))
    }

    public func setSubAnalyzers(_ subs: [Analyzer], for key: String) {
        for (index, sub) in subs.enumerated() {
            bind(sub, key: Node.Key(name: key, index: index, section: nil))
        }
    }

    /// Adds one indexed sub analyzer: a table's cell for a row. Binding a reused cell's
    /// analyzer to another row moves it to that row's node; the node of the row it
    /// left keeps its state.
    public func setSubAnalyzer(_ sub: Analyzer, for key: String, index: Int, section: Int? = nil) {
        bind(sub, key: Node.Key(name: key, index: index, section: section))
    }

    /// Forgets the nodes of the sub analyzers under `key` (a table reloaded its data):
    /// their events, values, visibility and branches. The sub analyzers get fresh nodes
    /// at their next event.
    public func reloadSubAnalyzers(for key: String) {
        Manager.lock.withLock { resolvedNode()?.removeChildren(named: key) }
    }

    private func bind(_ sub: Analyzer, key: Node.Key) {
        Manager.lock.withLock {
            guard !sub.isDetached, !sub.isRoot, sub !== self else { return }
            if let current = sub.binding, current.superAnalyzer === self, current.key == key { return }
            // A reused cell leaves its row's node: the node stays, among a bounded number.
            if let old = sub.node, !old.isRemoved, old.index != nil, let parent = old.parentNode {
                parent.childBecameIdle(old.key)
            }
            sub.binding = Binding(superAnalyzer: self, key: key)
            sub.unbindNode()
        }
    }

    public func record(_ event: FocusEvent.Name) {
        record { FocusEvent(name: event, time: $0) }
    }

    public func update(_ value: (any AnalyticsValueConvertible)?, for keyPath: String) {
        let analyticsValue = value?.analyticsValue
        record { FocusEvent(name: .updated, time: $0, keyPath: keyPath, value: analyticsValue) }
    }

    private func record(_ makeEvent: (Date) -> FocusEvent) {
        var matched: [Manager.MatchedTask] = []
        var sparks: [(SparkEvent, SparkEvent.Context)] = []
        var receiver: Manager.Receiver?
        let manager: Manager? = Manager.lock.withLock {
            guard !isDetached else { return nil }
            guard let node = resolvedNode(), let manager = boundManager else {
                if pending.count < Self.pendingLimit { pending.append(makeEvent(Date())) }
                return nil
            }
            let event = makeEvent(manager.clock())
            if !pending.isEmpty {
                let waiting = pending
                pending.removeAll()
                for earlier in waiting { apply(earlier, on: node, manager: manager, &matched, &sparks) }
            }
            apply(event, on: node, manager: manager, &matched, &sparks)
            if !(matched.isEmpty && sparks.isEmpty) { receiver = manager.receiver }
            return manager
        }
        guard let manager else { return }
        var results: [AnalyticsEvent] = []
        var errors: [any Error] = []
        manager.run(matched, results: &results, errors: &errors)
        manager.deliver(results, errors: errors, sparks: sparks, to: receiver)
    }

    private func apply(
        _ event: FocusEvent, on node: Node, manager: Manager,
        _ matched: inout [Manager.MatchedTask], _ sparks: inout [(SparkEvent, SparkEvent.Context)]
    ) {
        manager.handle(event, on: node, matched: &matched)
        guard !sparkEvents.isEmpty else { return }
        for position in sparkEvents.indices where sparkEvents[position].trigger.eventName == event.name {
            let spark = sparkEvents[position]
            sparks.append((spark, SparkEvent.Context(timestamp: event.time, path: node.path, visibleDuration: node.visibleDuration, event: event)))
            if spark.isSingleFire { sparkEvents[position].trigger = .none }
        }
    }

    public func markFocused() {
        Manager.lock.withLock {
            guard !isDetached, let node = resolvedNode() else { return }
            var ancestor = node.parentNode
            while let current = ancestor {
                current.focusedAnalyzer = self
                ancestor = current.parentNode
            }
        }
    }

    public func detach() {
        let handles: [ObservationHandle] = Manager.lock.withLock {
            guard !isDetached else { return [] }
            if let node, !node.isRemoved, let parent = node.parentNode {
                parent.removeChild(node.key)
            }
            isDetached = true
            unbindNode()
            pending.removeAll()
            sparkEvents.removeAll()
            binding = nil
            defer { observations.removeAll() }
            return observations
        }
        for handle in handles { handle.cancel() }
    }

    /// Attaches a Spark event: its action runs when its trigger's event is recorded here.
    public func attach(_ event: SparkEvent) {
        Manager.lock.withLock {
            guard !isDetached else { return }
            sparkEvents.append(event)
            registerSparks()
        }
    }

    /// Removes an attached Spark event.
    public func removeSparkEvent(id: UUID) {
        Manager.lock.withLock { sparkEvents.removeAll { $0.id == id } }
    }

    /// The attached Spark events, with single-fire ones that fired showing ``SparkTrigger/none``.
    public var attachedSparkEvents: [SparkEvent] {
        Manager.lock.withLock { sparkEvents }
    }

    /// The attached Spark events, for snapshots (under the lock).
    var sparkEventsForSnapshot: [SparkEvent] {
        Manager.lock.assertHeld()
        return sparkEvents
    }

    func keep(_ handle: ObservationHandle) -> Bool {
        Manager.lock.withLock {
            guard !isDetached else { return false }
            observations.append(handle)
            return true
        }
    }

    // MARK: Resolution (under Manager.lock)

    /// The node, resolving it first if needed.
    func resolvedNode(depth: Int = 0) -> Node? {
        if let node, !node.isRemoved { return node }
        guard !isDetached, depth < 256 else { return nil }
        let resolved: (Node, Manager)?
        if let binding, let superAnalyzer = binding.superAnalyzer {
            // Added by a super analyzer: its place, once the super analyzer has one.
            if let parent = superAnalyzer.resolvedNode(depth: depth + 1), let manager = superAnalyzer.boundManager {
                resolved = (parent.child(binding.key, createdAt: manager.clock(), serial: manager.makeSerial), manager)
            } else {
                resolved = nil
            }
        } else if let standaloneName, let host = findHost(), let parent = host.resolvedNode(depth: depth + 1),
                  let manager = host.boundManager {
            let key = Node.Key(name: standaloneName, index: nil, section: nil)
            resolved = (parent.child(key, createdAt: manager.clock(), serial: manager.makeSerial), manager)
        } else {
            resolved = nil
        }
        guard let (node, manager) = resolved else { return nil }
        self.node = node
        self.boundManager = manager
        node.analyzerID = ObjectIdentifier(self)
        registerSparks()
        return node
    }

    /// Walks up the owner's responder chain to the first enabled analyzer; through a
    /// redirect, to what that analyzer last saw focused.
    private func findHost() -> Analyzer? {
        // Once per walk: the loop reads `canHost` and `currentNode` of every analyzer it passes.
        Manager.lock.assertHeld()
        guard var current = owner else { return nil }
        for _ in 0..<256 {
            guard var next = current.parentConstitutor() else { return nil }
            var redirected = false
            if let target = next.redirectedConstitutor(for: current) {
                next = target
                redirected = true
            }
            if let host = (next as? any Analyzable)?.existingAnalyzer, host !== self, host.canHost {
                if redirected, let focused = host.currentNode?.focusedAnalyzer, !focused.isDetached, focused !== self {
                    return focused
                }
                return host
            }
            current = next
        }
        return nil
    }
}

/// The analyzer at the top of the responder chain (the application delegate's): its
/// node is the manager's root.
// @unchecked: as `Analyzer`; its one added field is a `let`.
public final class RootAnalyzer: Analyzer, @unchecked Sendable {
    /// Creates the root analyzer of a manager.
    /// - Parameters:
    ///   - manager: The manager whose root node this analyzer binds.
    ///   - owner: The object at the top of the chain, if it should be found by walks.
    public init(manager: Manager, owner: (any FocusPathConstituting)? = nil) {
        self.manager = manager
        super.init(owner: owner)
        Manager.lock.withLock {
            boundManager = manager
            manager.root.analyzerID = ObjectIdentifier(self)
        }
    }

    /// The manager whose root this analyzer binds.
    public let manager: Manager

    override var isRoot: Bool { true }

    override func resolvedNode(depth: Int = 0) -> Node? {
        manager.root
    }
}

/// A weak reference to an analyzer, for the manager's list of analyzers with Spark events.
struct WeakAnalyzer {
    weak var analyzer: Analyzer?
}
