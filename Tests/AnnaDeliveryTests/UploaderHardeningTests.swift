import Foundation
import Testing

@_spi(Generated) @testable import Anna

/// A flag an unstructured task sets when it is done, for waits that must not hang
/// the test when the code under test does.
final class Done: Sendable {
    private let state = LockedState(false)
    func set() { state.withLock { $0 = true } }
    var isSet: Bool { state.withLock { $0 } }
}

/// End-to-end checks of issue 9's uploader defects against the loopback collector.
@Suite(.serialized) struct UploaderHardeningTests {
    /// Defect 3: URLSession followed redirects: a 302 became a GET whose answer counted
    /// as delivery; a 307 re-sent the body and Authorization to the other host.
    @Test(arguments: [302, 307])
    func redirectsAreNeverFollowed(status: Int) async throws {
        let collector = try LoopbackCollector()
        defer { collector.stop() }
        let elsewhere = try LoopbackCollector()
        defer { elsewhere.stop() }
        try await collector.control(["default": ["redirect": status, "location": elsewhere.endpoint.absoluteString]])
        let errors = DeliveryErrors()
        let provider = try DurableProvider(
            endpoint: collector.endpoint, writeKey: "test-key", storage: .memory(limit: 1 << 20), configuration: .test(errors))
        try await provider.receive(envelopes(0..<3))
        try await provider.flush()
        #expect(await eventually { provider.metrics.retried >= 2 }, "retried with backoff")
        let other = try await elsewhere.accepted()
        #expect(other.requests == 0 && other.hits.isEmpty, "the other target saw nothing: \(other.hits)")
        #expect(provider.metrics.delivered == 0 && provider.metrics.backlog == 3, "the events stay queued")
        #expect(errors.all.contains { error in
            error.code == .retrying && error.status == status && error.message?.contains("not followed") == true
        })
        await provider.shutdown()
    }

    /// Defect 5: `requestTimeout` was an idle timeout; a collector trickling a byte
    /// every half second held the request, and flush behind it, for a minute.
    @Test func aTricklingCollectorCannotHoldARequestPastItsTimeout() async throws {
        let collector = try LoopbackCollector()
        defer { collector.stop() }
        try await collector.control(["script": [["trickle": 120, "every": 0.5]]])
        let errors = DeliveryErrors()
        let provider = try DurableProvider(
            endpoint: collector.endpoint, writeKey: "test-key", storage: .memory(limit: 1 << 20),
            configuration: .test(errors, timeout: .seconds(1)))
        try await provider.receive(envelopes(0..<3))
        let flushed = Done()
        Task {
            try? await provider.flush()
            flushed.set()
        }
        #expect(await eventually(within: 30) { flushed.isSet }, "flush returned long before the trickle ended")
        #expect(provider.metrics.retried >= 1)
        #expect(await eventually { provider.metrics.delivered == 3 }, "the retry delivers")
        await provider.shutdown()
    }

    /// Defect 9: after purge returned, halves of a split batch read before it were
    /// still sent; now no request carries an event from before the purge.
    @Test func noRequestCarriesPurgedEventsAfterPurgeReturns() async throws {
        let collector = try LoopbackCollector()
        defer { collector.stop() }
        // Every request waits two seconds after arriving (so the purge below comes while the
        // first is in flight, even on a loaded machine: with half a second, two split
        // halves were sometimes delivered first); batches over 2 events get 413.
        try await collector.control(["default": ["stall": 2.0], "maxEvents": 2])
        let provider = try DurableProvider(
            endpoint: collector.endpoint, writeKey: "test-key", storage: .memory(limit: 1 << 20), configuration: .test())
        let purged = envelopes(0..<8)
        try await provider.receive(purged)
        await provider.waitUntilPersisted()
        let flushed = Done()
        Task {
            try? await provider.flush()
            flushed.set()
        }
        #expect(await eventually { (try? await collector.accepted().requests) ?? 0 >= 1 }, "a request is in flight")
        await provider.purge()
        let purgeReturned = Date().timeIntervalSince1970
        #expect(await eventually { flushed.isSet })
        // Long enough for the halves of the split batch to have gone out.
        try await Task.sleep(for: .seconds(5))
        let purgedIDs = Set(purged.map { $0.messageID.uuidString.lowercased() })
        let late = try await collector.accepted().arrivals.filter { arrival in
            arrival.time > purgeReturned && arrival.messageIDs.contains { purgedIDs.contains($0) }
        }
        #expect(late.isEmpty, "\(late.count) request(s) after purge carried purged events")
        // On a loaded machine the purge can come while a split half is in flight: the
        // collector may accept that half (it arrived before the purge), and the provider
        // counts it delivered when the answer reached it first, purged otherwise. Each
        // event is counted once, and none is counted delivered that the collector lacks.
        let acceptedBeforePurge = try await collector.accepted().events.filter { purgedIDs.contains($0.messageID) }.count
        #expect(provider.metrics.dropped[.purged, default: 0] + provider.metrics.delivered == 8)
        #expect(provider.metrics.delivered <= acceptedBeforePurge)

        // Uploads resume for what comes after.
        try await collector.control(["default": ["status": 200]])
        try await provider.receive(envelopes(100..<102))
        try await provider.flush()
        #expect(try await collector.accepted().events.map(\.number).suffix(2) == [100, 101])
        await provider.shutdown()
    }

    /// Defect 11: a collector or proxy answering 400 to everything wiped the backlog.
    @Test func aCollectorRejectingEverythingKeepsTheBacklogOnDisk() async throws {
        let collector = try LoopbackCollector()
        defer { collector.stop() }
        try await collector.control(["default": ["status": 400]])
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let errors = DeliveryErrors()
        var configuration = DurableProvider.Configuration.test(errors)
        configuration.maxRejectedInARow = 3
        let provider = try DurableProvider(
            endpoint: collector.endpoint, writeKey: "test-key", storage: .directory(directory.url),
            configuration: configuration)
        try await provider.receive(envelopes(0..<20))
        try await provider.flush()
        #expect(provider.metrics.backlog == 20 && provider.metrics.dropped.isEmpty && provider.metrics.delivered == 0)
        #expect(errors.all.contains { $0.code == .collectorRejectsEverything && $0.status == 400 && $0.inARow == 3 })
        await provider.shutdown()

        // The events are on disk: a later start delivers them.
        try await collector.control(["default": ["status": 200]])
        let restarted = try DurableProvider(
            endpoint: collector.endpoint, writeKey: "test-key", storage: .directory(directory.url), configuration: .test())
        #expect(await eventually { restarted.metrics.delivered == 20 })
        #expect(Set(try await collector.accepted().events.compactMap(\.number)) == Set(0..<20))
        await restarted.shutdown()
    }

    /// Defect 16: a second concurrent stop() replaced the first caller's continuation,
    /// which then never returned.
    @Test func concurrentShutdownsAllReturn() async throws {
        let collector = try LoopbackCollector()
        defer { collector.stop() }
        // The last attempt takes a while, so both calls wait for it.
        try await collector.control(["default": ["stall": 1]])
        let provider = try DurableProvider(
            endpoint: collector.endpoint, writeKey: "test-key", storage: .memory(limit: 1 << 20), configuration: .test())
        try await provider.receive(envelopes(0..<3))
        await provider.waitUntilPersisted()
        let first = Done()
        let second = Done()
        Task {
            await provider.shutdown()
            first.set()
        }
        Task {
            await provider.shutdown()
            second.set()
        }
        #expect(await eventually { first.isSet && second.isSet }, "first \(first.isSet), second \(second.isSet)")
        #expect(provider.metrics.delivered == 3)
    }
}
