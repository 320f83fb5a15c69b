import Dispatch
import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Receives what a ``Manager``'s tasks produce, on the manager's ``Manager/delegateQueue``.
public protocol ManagerDelegate: AnyObject, Sendable {
    /// A task produced an event; it was also reported to the manager's service.
    func manager(_ manager: Manager, didSend result: AnalyticsEvent)
    /// A task failed (``TaskError``), or a pattern given to
    /// ``Manager/match(_:file:line:_:)-(String,_,_,_)`` was invalid (`FocusPattern.SyntaxError`).
    func manager(_ manager: Manager, didCatch error: any Error)
}

extension ManagerDelegate {
    /// Does nothing.
    public func manager(_ manager: Manager, didCatch error: any Error) {}
}

/// The focus-path engine (Anna.Core): the node tree, the tasks, and where results go.
///
/// ```swift
/// let manager = Manager(service: analytics, tasks: [.shop])
/// manager.match("master/tableView/cell/did-select") { node in .itemOpened(id: node.path) }
/// appDelegate.analyzer = RootAnalyzer(manager: manager)
/// ```
///
/// Events recorded on analyzers are applied to their nodes and matched against the
/// tasks on the recording thread, under one lock held for that event only; the
/// matching tasks then run on that thread with the lock released, so an action may
/// wait for other threads. Results are reported to the ``AnalyticsService`` there
/// (which returns at once) and passed to the delegate asynchronously on ``delegateQueue``.
// @unchecked: the task index and nodes change under `lock`; the delegate fields are the lock's too.
public final class Manager: @unchecked Sendable {
    /// The focus-path lock; one for all managers, since analyzers find their manager
    /// only when they resolve.
    static let lock = RecursiveLock()

    /// Where task results are reported; `nil` to receive them through the delegate only.
    public let service: AnalyticsService?
    let clock: @Sendable () -> Date
    let output: @Sendable (String) -> Void

    // Guarded by `Manager.lock`.
    private weak var _delegate: (any ManagerDelegate)?
    private var _delegateQueue: DispatchQueue
    private(set) var index = TaskIndex()
    /// Every registered task in registration order, with the name of its set (`nil`
    /// for tasks registered with ``match(_:file:line:_:)``): what the index is rebuilt
    /// from when a set is replaced.
    private var registered: [(set: String?, task: FocusTask)] = []
    private var nextSerial = 1
    /// Analyzers bound here that have Spark events, for snapshots.
    var sparkHolders: [WeakAnalyzer] = []
    /// The root node, `__root__`, path `/`.
    let root: Node

    /// Creates a manager.
    /// - Parameters:
    ///   - service: Where task results are reported.
    ///   - tasks: Task sets, usually generated from specs: `[.shop]`.
    ///   - clock: The time events are stamped with; `Date()` by default.
    ///   - standardOutput: Where ``logSnapshot()`` writes; standard output by default.
    public init(
        service: AnalyticsService?,
        tasks: [TaskSet] = [],
        clock: @escaping @Sendable () -> Date = { Date() },
        standardOutput: @escaping @Sendable (String) -> Void = { print($0) }
    ) {
        self.service = service
        self.clock = clock
        self.output = standardOutput
        self._delegateQueue = .main
        self.root = Node(name: "__root__", index: nil, section: nil, parent: nil, createdAt: clock(), serial: 0)
        // No other thread can see the manager yet; the lock is taken so that `add` can check it.
        Self.lock.withLock {
            for set in tasks { add(set.tasks, set: set.name) }
        }
    }

    /// Adds tasks to the index and the registration list (under the lock).
    private func add(_ tasks: [FocusTask], set: String?) {
        Self.lock.assertHeld()
        for task in tasks {
            index.insert(task)
            registered.append((set, task))
        }
    }

    /// Receives results and errors. Held weakly.
    public var delegate: (any ManagerDelegate)? {
        get { Self.lock.withLock { _delegate } }
        set { Self.lock.withLock { _delegate = newValue } }
    }

    /// Where the delegate is called; the main queue by default, as UIKit apps expect.
    /// Set a queue of your own when the main queue does not run (command-line tools, tests).
    public var delegateQueue: DispatchQueue {
        get { Self.lock.withLock { _delegateQueue } }
        set { Self.lock.withLock { _delegateQueue = newValue } }
    }

    /// Registers the tasks of a set.
    public func register(_ tasks: TaskSet) {
        Self.lock.withLock { add(tasks.tasks, set: tasks.name) }
    }

    /// Registers a task written in Swift.
    ///
    /// ```swift
    /// manager.match("master/tableView/cell/did-select") { node in
    ///     .itemOpened(id: node.path, row: try node.requiredIndex())
    /// }
    /// ```
    /// An invalid pattern registers nothing and goes to the delegate's
    /// ``ManagerDelegate/manager(_:didCatch:)`` as a `FocusPattern.SyntaxError`.
    public func match(_ pattern: String, file: String = #fileID, line: Int = #line, _ action: @escaping @Sendable (Node) throws -> AnalyticsEvent?) {
        do {
            let task = try FocusTask(match: pattern, source: "\(file):\(line)", action: action)
            Self.lock.withLock { add([task], set: nil) }
        } catch {
            deliver([], errors: [error], sparks: [])
        }
    }

    /// Registers a task written in Swift that runs when any of several patterns
    /// matches, once per event (the seed's `match([p1, p2], fn)`).
    ///
    /// ```swift
    /// manager.match(["master/tableView/cell/did-select", "search/results/cell/did-select"]) { node in
    ///     .itemOpened(row: try node.requiredIndex())
    /// }
    /// ```
    /// An empty list or an invalid pattern registers nothing and goes to the delegate's
    /// ``ManagerDelegate/manager(_:didCatch:)`` as a `FocusPattern.SyntaxError`.
    public func match(_ patterns: [String], file: String = #fileID, line: Int = #line, _ action: @escaping @Sendable (Node) throws -> AnalyticsEvent?) {
        do {
            let task = try FocusTask(match: patterns, source: "\(file):\(line)", action: action)
            Self.lock.withLock { add([task], set: nil) }
        } catch {
            deliver([], errors: [error], sparks: [])
        }
    }

    /// Replaces the tasks of a set, registered under the same ``TaskSet/name``, with
    /// `tasks`, at once: an event recorded meanwhile meets either the old tasks or the
    /// new ones, never a mix or none. The new tasks take the place of the old ones in
    /// registration order; a set not registered yet is added.
    public func replaceTasks(of tasks: TaskSet) {
        Self.lock.withLock {
            let position = registered.firstIndex { $0.set == tasks.name } ?? registered.count
            var entries = registered.filter { $0.set != tasks.name }
            let insertAt = min(position, entries.count)
            entries.insert(contentsOf: tasks.tasks.map { (tasks.name, $0) }, at: insertAt)
            let rebuilt = TaskIndex()
            for entry in entries { rebuilt.insert(entry.task) }
            registered = entries
            index = rebuilt
        }
    }

    /// The number of registered tasks.
    package var taskCount: Int { Self.lock.withLock { index.all.count } }

    func makeSerial() -> Int {
        nextSerial += 1
        return nextSerial
    }

    /// How deep tasks may trigger tasks: a task whose action records an event that
    /// matches a task (itself or another) runs one level deeper; at this depth the
    /// matching tasks are not run and the delegate receives a ``TaskError``.
    public static let taskDepthLimit = 8

    /// A task that matched an event, run once the lock is released.
    struct MatchedTask {
        let task: FocusTask
        let node: Node
        let event: FocusEvent
    }


    /// Applies an event to a node and collects the tasks it matches. Called under the lock.
    func handle(_ event: FocusEvent, on node: Node, matched: inout [MatchedTask]) {
        Self.lock.assertHeld()
        node.apply(event)
        index.forEachMatch(event: event.name.rawValue, node: node) { task in
            matched.append(MatchedTask(task: task, node: node, event: event))
        }
    }

    /// Runs matched tasks. Called outside the lock, so an action may wait for other
    /// threads that record; what it reads from nodes takes the lock per read.
    func run(_ matched: [MatchedTask], results: inout [AnalyticsEvent], errors: inout [any Error]) {
        guard let first = matched.first else { return }
        let running = RunningTasks.current
        guard running.stack.count < Self.taskDepthLimit else {
            errors.append(TaskError.taskFailed(
                path: first.node.path,
                message: "not run: tasks triggered tasks \(Self.taskDepthLimit) levels deep; does an action record the event that triggers it?",
                task: first.task.label))
            return
        }
        for match in matched {
            running.stack.append((match.node, match.event))
            defer { running.stack.removeLast() }
            do {
                if let result = try match.task.action(match.node) { results.append(result) }
            } catch var error as TaskError {
                error.task = match.task.label
                errors.append(error)
            } catch {
                // The error's own description may quote values; its type names the problem.
                errors.append(TaskError.taskFailed(
                    path: match.node.path, message: "the task threw \(String(reflecting: type(of: error)))",
                    task: match.task.label))
            }
        }
    }

    /// The delegate and its queue, read with the event under the lock so that
    /// delivering its results does not take the lock again.
    struct Receiver {
        weak var delegate: (any ManagerDelegate)?
        let queue: DispatchQueue
    }

    /// The delegate and its queue now (under the lock).
    var receiver: Receiver {
        Self.lock.assertHeld()
        return Receiver(delegate: _delegate, queue: _delegateQueue)
    }

    /// Reports results to the service and hands results, errors and Spark actions to
    /// the delegate queue. Called outside the lock.
    func deliver(
        _ results: [AnalyticsEvent], errors: [any Error], sparks: [(SparkEvent, SparkEvent.Context)],
        to receiver: Receiver? = nil
    ) {
        guard !(results.isEmpty && errors.isEmpty && sparks.isEmpty) else { return }
        if let service {
            for result in results { service.report(result) }
        }
        let (delegate, queue) = receiver.map { ($0.delegate, $0.queue) } ?? Self.lock.withLock { (_delegate, _delegateQueue) }
        if !sparks.isEmpty {
            queue.async { for (spark, context) in sparks { spark.action(context) } }
        }
        guard let delegate, !(results.isEmpty && errors.isEmpty) else { return }
        let errorBox = UncheckedErrors(errors: errors)
        queue.async {
            for result in results { delegate.manager(self, didSend: result) }
            for error in errorBox.errors { delegate.manager(self, didCatch: error) }
        }
    }

    /// Runs `body` with the node at a path, under the manager's lock; `nil` when there is
    /// no such node. For tests and debugging.
    /// - Parameters:
    ///   - path: `/master/tableView/cell`; nodes above the last must be keyed (no index).
    ///   - index: The last node's index.
    ///   - section: The last node's section.
    ///   - body: What to read from the node; return plain values, do not keep the node.
    /// - Returns: What `body` returned, or `nil` when there is no node at the path.
    public func inspectNode<Result>(at path: String, index: Int? = nil, section: Int? = nil, _ body: (Node) -> Result) -> Result? {
        Self.lock.withLock {
            var node = root
            let names = path.split(separator: "/").map(String.init)
            for (position, name) in names.enumerated() {
                let isLast = position == names.count - 1
                let key = Node.Key(name: name, index: isLast ? index : nil, section: isLast ? section : nil)
                guard let child = node.children[key] else { return nil }
                node = child
            }
            return body(node)
        }
    }
}

/// Errors are `any Error`, which is not `Sendable` in general; the ones passed here
/// are the manager's own Sendable types or errors a task threw, handed over once.
private struct UncheckedErrors: @unchecked Sendable {
    var errors: [any Error]
}
