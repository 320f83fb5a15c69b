import Anna
import AnnaDestinations
import Benchmark
import Foundation

// Segment's path beside Amplitude's, Mixpanel's and PostHog's (issue 36), in one run,
// each against its loopback collector (Tests/AnnaDeliveryTests/collector.py,
// Tests/AnnaDeliveryTests/Destinations/vendors.py): bytes on the wire per event, compressed as
// each collector takes it and as raw JSON, and events per second from `report` to the
// collector's 2xx. `--filter 'Destinations.*'` runs them alone.

/// One destination: how to make its provider against a loopback collector.
enum BenchDestination: String, CaseIterable {
    case segment = "Segment (DurableProvider)"
    case amplitude = "Amplitude"
    case mixpanel = "Mixpanel"
    case posthog = "PostHog"

    var script: String { self == .segment ? "AnnaDeliveryTests/collector.py" : "AnnaDeliveryTests/Destinations/vendors.py" }

    func provider(
        _ collector: BenchCollector, directory: URL, flushAt: Int
    ) throws -> (any AnalyticsProvider, @Sendable () -> DurableProvider.Metrics) {
        let storage = DeliveryStorage.directory(directory)
        let configuration = DurableProvider.Configuration(flushAt: flushAt, flushInterval: .seconds(3600))
        let base = "http://127.0.0.1:\(collector.port)"
        switch self {
        case .segment:
            let provider = try DurableProvider(
                endpoint: collector.endpoint, writeKey: "test-key", storage: storage, configuration: configuration)
            return (provider, { provider.metrics })
        case .amplitude:
            let provider = try DurableProvider(
                collector: .amplitude(apiKey: "test-key", region: .custom(URL(string: base)!)), storage: storage,
                configuration: configuration)
            return (provider, { provider.metrics })
        case .mixpanel:
            let provider = try DurableProvider(
                collector: .mixpanel(token: "test-key", region: .custom(URL(string: base)!)), storage: storage,
                configuration: configuration)
            return (provider, { provider.metrics })
        case .posthog:
            let provider = try DurableProvider(
                collector: .posthog(projectAPIKey: "test-key", host: .selfHosted(URL(string: base)!)), storage: storage,
                configuration: configuration)
            return (provider, { provider.metrics })
        }
    }
}

/// `[bytes on the wire, JSON bytes, events]` of each request, from either collector's view.
func wireRows(_ accepted: [String: Any]) -> [(wire: Int, json: Int, events: Int)] {
    (accepted["wire"] as? [[Any]] ?? []).map { row in
        // vendors.py puts the path first.
        let offset = row.first is String && row.count == 5 ? 1 : 0
        return (row[offset + 1] as? Int ?? 0, row[offset + 2] as? Int ?? 0, row[offset + 3] as? Int ?? 0)
    }
}

func destinationBenchmarks() {
    let bytes = Benchmark.Configuration(
        metrics: [
            .custom("wire bytes per event", useScalingFactor: false),
            .custom("JSON bytes per event", useScalingFactor: false),
        ],
        warmupIterations: 0, scalingFactor: .one, maxDuration: .seconds(60), maxIterations: 3)
    let speed = Benchmark.Configuration(
        metrics: [.custom("events/s", useScalingFactor: false), .wallClock],
        warmupIterations: 1, scalingFactor: .one, maxDuration: .seconds(60), maxIterations: 5)

    for destination in BenchDestination.allCases {
        // A batch of 100 typical events with a full context, in one request, with each
        // provider's default compression (gzip for Segment and PostHog; Amplitude and
        // Mixpanel document none for these endpoints).
        Benchmark("Destinations: bytes per event, 100 typical events, \(destination.rawValue)", configuration: bytes) {
            benchmark in
            guard let collector = try? BenchCollector(script: destination.script) else { preconditionFailure("no collector") }
            defer { collector.stop() }
            for _ in benchmark.scaledIterations {
                let directory = scratchDirectory("destination-bytes")
                let (provider, metrics) = try! destination.provider(collector, directory: directory, flushAt: .max)
                let analytics = AnalyticsService(
                    providers: [provider], configuration: .init(context: fullContext, storageDirectory: directory, lifecycle: nil))
                for index in 0..<100 { analytics.report(typicalEvent(index)) }
                await analytics.flush()
                await analytics.shutdown()
                precondition(metrics().delivered == 100, "delivered \(metrics().delivered)")
                let rows = wireRows(collector.accepted())
                precondition(rows.count == 1 && rows[0].events == 100, "one request of 100 events: \(rows)")
                benchmark.measurement(.custom("wire bytes per event", useScalingFactor: false), rows[0].wire / 100)
                benchmark.measurement(.custom("JSON bytes per event", useScalingFactor: false), rows[0].json / 100)
                collector.reset()
                try? FileManager.default.removeItem(at: directory)
            }
        }

        // 5,000 typical events reported through the service and delivered in requests
        // of 500: events per second from the first `report` to the last 2xx.
        Benchmark("Destinations: 5,000 events delivered, \(destination.rawValue)", configuration: speed) { benchmark in
            guard let collector = try? BenchCollector(script: destination.script) else { preconditionFailure("no collector") }
            defer { collector.stop() }
            let events = 5_000
            let batch = (0..<events).map { typicalEvent($0) }
            for _ in benchmark.scaledIterations {
                let directory = scratchDirectory("destination-speed")
                let (provider, metrics) = try! destination.provider(collector, directory: directory, flushAt: 500)
                let analytics = AnalyticsService(
                    providers: [provider], configuration: .init(context: fullContext, storageDirectory: directory, lifecycle: nil))
                let start = ContinuousClock.now
                benchmark.startMeasurement()
                for event in batch { analytics.report(event) }
                while metrics().delivered < events { await analytics.flush() }
                benchmark.stopMeasurement()
                let elapsed = (ContinuousClock.now - start).components
                let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
                benchmark.measurement(.custom("events/s", useScalingFactor: false), Int(Double(events) / seconds))
                await analytics.shutdown()
                collector.reset()
                try? FileManager.default.removeItem(at: directory)
            }
        }
    }
}
