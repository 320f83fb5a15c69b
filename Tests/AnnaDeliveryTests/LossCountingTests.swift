import Foundation
import Testing

@_spi(DurableQueue) @testable import Anna

/// Issue 34: one view of every loss, and a `persisted` that no longer counts what a
/// cap deleted.
@Suite struct LossCountingTests {
    @Test func theServiceSumsEveryLossPerProviderAndReason() async throws {
        let provider = try DurableProvider(
            endpoint: URL(string: "http://127.0.0.1:9/v1/batch")!, writeKey: "k", storage: .memory(limit: 16 << 10),
            configuration: .init(flushAt: 1_000_000, flushInterval: .seconds(3600)))
        provider.networkPathChanged(NetworkPath(isReachable: false))
        let analytics = AnalyticsService(providers: [provider])
        for number in 0..<400 { analytics.report(.numbered(number, padding: 200)) }
        await analytics.flush()
        await analytics.shutdown()
        analytics.report(.numbered(400))

        let http = provider.metrics
        let capacity = http.dropped[.capacity, default: 0]
        #expect(capacity > 0, "the disk cap deleted the oldest")
        #expect(http.persisted == http.backlog, "nothing was delivered: what is persisted is what waits")
        #expect(http.persisted + capacity == http.queued, "every event accepted, and what was deleted is no longer persisted")

        let metrics = analytics.metrics
        #expect(metrics.dropped[.shutdown, default: 0] == 1)
        #expect(metrics.lost[provider.name] == [.capacity: capacity, .shutdown: 1], "one view from the intake to the disk cap")
    }

    /// Issue 40: a provider an app writes adds its own drops to `lost` through
    /// `droppedEvents`; before, only Anna's own HTTP provider could.
    @Test func aProviderTheAppWritesReportsItsDropsToLost() async throws {
        let provider = RefusingProvider()
        let analytics = AnalyticsService(providers: [provider])
        for number in 0..<10 { analytics.report(.numbered(number)) }
        await analytics.flush()
        #expect(provider.received == 5)
        #expect(analytics.metrics.lost["RefusingProvider"] == [.rejected: 5])
        await analytics.shutdown()
    }
}

/// Keeps every other event and counts the rest as dropped, as an app's provider over
/// a vendor SDK that refuses some events would.
private final class RefusingProvider: AnalyticsProvider {
    private let counts = LockedState((kept: 0, seen: 0))
    var received: Int { counts.withLock { $0.kept } }
    var droppedEvents: [DropReason: Int] {
        let (kept, seen) = counts.withLock { ($0.kept, $0.seen) }
        return seen > kept ? [.rejected: seen - kept] : [:]
    }

    func receive(_ batch: [AnalyticsEnvelope]) async throws {
        counts.withLock { counts in
            for _ in batch {
                if counts.seen % 2 == 0 { counts.kept += 1 }
                counts.seen += 1
            }
        }
    }
}
