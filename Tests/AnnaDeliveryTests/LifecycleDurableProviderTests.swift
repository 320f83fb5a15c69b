import Foundation
import Testing

@_spi(DurableQueue) @testable import Anna

/// The app's lifecycle suspends and resumes a durable provider on its lane, through
/// the service: the suspension releases the queue's lock, the resumption retakes it,
/// and what was reported meanwhile is delivered in order.
@Suite struct LifecycleDurableProviderTests {
    @Test func theAppsLifecycleSuspendsAndResumesADurableProviderOnItsLane() async throws {
        let app = try LifecycleApp()
        defer { app.remove() }
        let (collector, http, lifecycle, analytics) = (app.collector, app.http, app.lifecycle, app.analytics)
        analytics.report(AnalyticsEvent(name: "Before"))
        lifecycle.send(.background)
        let lock = app.lock
        #expect(await eventually(within: 120) { SharedStorageTests.isFree(lock) }, "suspended: the queue's lock is released")

        analytics.report(AnalyticsEvent(name: "While Suspended"))
        lifecycle.send(.foreground)
        analytics.report(AnalyticsEvent(name: "After"))
        // A flush follows the resumption on the lane; while suspended it would deliver nothing.
        await analytics.flush()
        #expect(!SharedStorageTests.isFree(lock), "resumed: the lane took the lock back")
        let names = try await collector.accepted().events.map(\.name)
        #expect(names == ["Before", "While Suspended", "After"])
        #expect(http.metrics.backlog == 0)
        await analytics.shutdown()
    }
}

/// The move to the background releases the queue's lock while every thread of Swift's
/// cooperative pool is blocked, as an app's own blocking work can hold them: the
/// background flush and the suspension run on the service's queues, the window's task
/// on a queue of its own. Before, the flush ran in a task on the pool and waited for it.
@Suite struct BackgroundFlushWithoutThePoolTests {
    @Test func theQueueIsReleasedWhileThePoolIsBlocked() async throws {
        let app = try LifecycleApp()
        defer { app.remove() }
        let (collector, lifecycle, analytics) = (app.collector, app.lifecycle, app.analytics)
        analytics.report(AnalyticsEvent(name: "Before"))
        await analytics.flush()
        let lock = app.lock
        #expect(!SharedStorageTests.isFree(lock))

        // Other suites run beside this one and may hold the pool's threads for a while
        // (under the thread sanitizer, IdentityFailsClosedTests' hundreds of launches
        // do): try again until the test's own tasks fill it, for up to ten minutes.
        let patience = Date().addingTimeInterval(600)
        var outcome = (filled: false, released: false)
        repeat {
            outcome = await PoolBlocker.run { filled in
                guard filled else { return (filled: false, released: false) }
                lifecycle.send(.background)
                let deadline = Date().addingTimeInterval(30)
                while Date() < deadline, !SharedStorageTests.isFree(lock) { usleep(5_000) }
                return (filled: true, released: SharedStorageTests.isFree(lock))
            }
            // Between tries, the threads this try held go back to the other suites' tests.
            if !outcome.filled { try? await Task.sleep(for: .seconds(2)) }
        } while !outcome.filled && Date() < patience
        #expect(outcome.filled, "every thread of the pool was blocked by the test")
        #expect(outcome.released, "the queue's lock was released while the pool was blocked")

        lifecycle.send(.foreground)
        analytics.report(AnalyticsEvent(name: "After"))
        await analytics.flush()
        #expect(try await collector.accepted().events.map(\.name) == ["Before", "After"])
        await analytics.shutdown()
    }
}

/// Blocks every thread of the cooperative pool while `body` runs on a thread of its own.
enum PoolBlocker {
    /// Starts one blocking task per thread of the pool and waits (at most 5 s for each:
    /// other tests may hold threads meanwhile) until all of them run; then runs `body`
    /// with whether they all did, and lets them go. The wait is short because the
    /// threads it did get are held from every other test meanwhile: with 60 s, tries
    /// repeated for minutes starved the other suites' tests past their own limits.
    static func run<Result: Sendable>(_ body: @escaping @Sendable (_ filled: Bool) -> Result) async -> Result {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                let width = ProcessInfo.processInfo.activeProcessorCount
                let running = DispatchSemaphore(value: 0)
                let gate = DispatchSemaphore(value: 0)
                for _ in 0..<width {
                    Task.detached {
                        running.signal()
                        _ = gate.wait(timeout: .now() + 90)
                    }
                }
                var filled = true
                for _ in 0..<width where running.wait(timeout: .now() + 5) == .timedOut { filled = false }
                let result = body(filled)
                for _ in 0..<width { gate.signal() }
                continuation.resume(returning: result)
            }
            thread.name = "anna-test-pool-blocker"
            thread.start()
        }
    }
}

/// A service with one durable provider on a loopback collector, following a lifecycle
/// the test drives.
struct LifecycleApp {
    let collector: LoopbackCollector
    let folder = TemporaryDirectory()
    let http: DurableProvider
    let lifecycle = AppLifecycle()
    let analytics: AnalyticsService
    /// The durable queue's lock file.
    var lock: String { folder.url.appendingPathComponent("queue/lock").path }

    init() throws {
        collector = try LoopbackCollector()
        http = try DurableProvider(
            endpoint: collector.endpoint, writeKey: "test-key",
            storage: .directory(folder.url.appendingPathComponent("queue")), configuration: .test())
        analytics = AnalyticsService(providers: [http], configuration: .init(
            storageDirectory: folder.url.appendingPathComponent("state"), lifecycle: lifecycle))
    }

    func remove() {
        collector.stop()
        folder.remove()
    }
}
