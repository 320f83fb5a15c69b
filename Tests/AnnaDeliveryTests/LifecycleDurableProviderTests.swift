import Foundation
import Testing

@_spi(DurableQueue) @testable import Anna

/// The app's lifecycle suspends and resumes a durable provider on its lane, through
/// the service: the suspension releases the queue's lock, the resumption retakes it,
/// and what was reported meanwhile is delivered in order.
@Suite struct LifecycleDurableProviderTests {
    @Test func theAppsLifecycleSuspendsAndResumesADurableProviderOnItsLane() async throws {
        let collector = try LoopbackCollector()
        defer { collector.stop() }
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let queue = folder.url.appendingPathComponent("queue")
        let http = try DurableProvider(
            endpoint: collector.endpoint, writeKey: "test-key", storage: .directory(queue), configuration: .test())
        let lifecycle = AppLifecycle()
        let analytics = AnalyticsService(providers: [http], configuration: .init(
            storageDirectory: folder.url.appendingPathComponent("state"), lifecycle: lifecycle))
        analytics.report(AnalyticsEvent(name: "Before"))
        lifecycle.send(.background)
        let lock = queue.appendingPathComponent("lock").path
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
