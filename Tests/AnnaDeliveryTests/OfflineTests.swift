import Foundation
import Testing

@_spi(DurableQueue) @testable import Anna

/// The network path end to end, on loopback: a collector the app cannot reach for a
/// while (it reports no path, and the collector is down), then back.
@Suite(.serialized) struct OfflineTests {
    @Test func noRequestWhileThereIsNoPathAndDeliveryAtOnceWhenItReturns() async throws {
        var collector = try LoopbackCollector()
        let port = collector.port
        defer { collector.stop() }
        // A first backoff drawn from 0-300 s: waiting it out would outlast the test.
        let configuration = DurableProvider.Configuration(
            flushAt: 1, flushInterval: .seconds(3600), initialRetryDelay: .seconds(300), maxRetryDelay: .seconds(600),
            requestTimeout: .seconds(5))
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let provider = try DurableProvider(
            endpoint: collector.endpoint, writeKey: "test-key", storage: .directory(directory.url),
            configuration: configuration)

        // Offline: the app says so before the events come.
        provider.networkPathChanged(.unreachable)
        try await provider.receive(envelopes(0..<5))
        try await provider.flush()
        #expect(provider.metrics.persisted == 5, "flush returns once the events are on disk")
        try await Task.sleep(for: .seconds(1))
        #expect(try await collector.accepted().requests == 0, "no request without a path, though the collector is up")

        // The collector goes down and the path seems back: one attempt fails, a long backoff begins.
        collector.stop()
        provider.networkPathChanged(.reachable)
        #expect(await eventually(within: 10) { provider.metrics.retried >= 1 })
        provider.networkPathChanged(.unreachable)
        collector = try LoopbackCollector(port: port)

        // Back: sent at once, without waiting out the backoff the outage began.
        provider.networkPathChanged(NetworkPath(isReachable: true, isExpensive: true))
        #expect(await eventually(within: 10) { provider.metrics.delivered == 5 })
        let accepted = try await collector.accepted()
        #expect(accepted.events.map(\.number) == Array(0..<5) && accepted.requests == 1)
        #expect(provider.metrics.retried == 1 && provider.metrics.backlog == 0)
        await provider.shutdown()
    }
}
