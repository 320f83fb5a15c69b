@_spi(Generated) import Anna
@_spi(Generated) import AnnaFocusPaths
import AnnaTesting
import Dispatch
import Foundation
import Testing

/// A manager with plain analyzers (no responder chain): a root and keyed children.
struct PlainTree {
    let delegate = RecordingManagerDelegate()
    let manager: Manager
    let root: RootAnalyzer

    init(tasks: [TaskSet] = []) {
        manager = Manager(service: nil, tasks: tasks)
        manager.delegate = delegate
        manager.delegateQueue = delegate.queue
        root = RootAnalyzer(manager: manager)
    }

    /// An analyzer keyed `name` under the root.
    func analyzer(_ name: String) -> Analyzer {
        let analyzer = Analyzer(owner: nil)
        root.setSubAnalyzer(analyzer, for: name)
        return analyzer
    }
}

/// How tasks run: outside the focus-path lock, and never recursing without bound.
@Suite(.timeLimit(.minutes(10))) struct TaskExecutionTests {
    /// A task that waits for another thread that records on the same manager. Under
    /// the lock this deadlocked until the wait timed out (the test fails, not hangs).
    @Test func aTaskCanWaitForAnotherThreadThatRecords() async {
        let tree = PlainTree()
        let button = tree.analyzer("button")
        let other = tree.analyzer("other")
        tree.manager.match("button/target-action") { _ in
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                other.record(.appeared)
                done.signal()
            }
            thread.start()
            let outcome = done.wait(timeout: .now() + 3)
            return AnalyticsEvent(name: outcome == .success ? "waited" : "timedOut")
        }
        button.record(.targetAction)
        let results = await tree.delegate.waitForResults(count: 1)
        #expect(results.map(\.name) == ["waited"])
    }

    /// Inside a task, the node's latest event is the one that triggered it.
    @Test func aTaskSeesItsTriggeringEvent() async {
        let tree = PlainTree()
        let button = tree.analyzer("button")
        tree.manager.match("button/target-action") { node in
            AnalyticsEvent(name: try node.requiredLatestEvent().name.rawValue)
        }
        button.record(.targetAction)
        let results = await tree.delegate.waitForResults(count: 1)
        #expect(results.map(\.name) == ["target-action"])
    }

    /// A task that records the event that triggers it stops at the depth limit and
    /// reports it once.
    @Test func aTaskThatTriggersItselfStopsAtTheDepthLimit() async {
        let tree = PlainTree()
        let button = tree.analyzer("button")
        let runs = LockedCounter()
        tree.manager.match("button/target-action") { _ in
            runs.increment()
            button.record(.targetAction)
            return nil
        }
        button.record(.targetAction)
        let errors = await tree.delegate.waitForErrors(count: 1)
        #expect(runs.value == Manager.taskDepthLimit)
        #expect(errors.count == 1)
        #expect(errors.first?.contains("levels deep") == true)
        #expect(errors.first?.contains("'button/target-action'") == true)
    }

    /// Tasks triggered by a task, below the limit, all run, inner ones first.
    @Test func tasksTriggeredByATaskRunBelowTheLimit() async {
        let tree = PlainTree()
        let first = tree.analyzer("first")
        let second = tree.analyzer("second")
        tree.manager.match("first/appeared") { _ in
            second.record(.appeared)
            return AnalyticsEvent(name: "first")
        }
        tree.manager.match("second/appeared") { _ in AnalyticsEvent(name: "second") }
        first.record(.appeared)
        let results = await tree.delegate.waitForResults(count: 2)
        #expect(results.map(\.name) == ["second", "first"])
        #expect(tree.delegate.errors.isEmpty)
    }
}

/// A counter shared with task closures.
final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

/// Spark events in snapshots: their trigger and trace, as `SparkEvent.trace` documents.
@Suite struct SparkSnapshotTests {
    @Test func theSnapshotShowsEachSparkEventsTriggerAndTrace() {
        let tree = PlainTree()
        let button = tree.analyzer("button")
        button.attach(SparkEvent(trigger: .didEndTouch, trace: "buy <now> & \"later\"") { _ in })
        button.attach(SparkEvent(trigger: .didAppear, isSingleFire: true) { _ in })
        button.record(.didEndTouch)
        let lines = tree.manager.snapshot().split(separator: "\n").map(String.init)
        let node = lines.firstIndex { $0.hasPrefix("  <button id=") }
        #expect(node != nil)
        #expect(lines.contains(
            "    <ana-spark trigger=\"didEndTouch\" trace=\"buy &lt;now&gt; &amp; &quot;later&quot;\" class=\"ana-spark\" />"))
        #expect(lines.contains("    <ana-spark trigger=\"didAppear\" single-fire=\"true\" class=\"ana-spark\" />"))
        button.detach()
        #expect(!tree.manager.snapshot().contains("ana-spark"))
    }
}
