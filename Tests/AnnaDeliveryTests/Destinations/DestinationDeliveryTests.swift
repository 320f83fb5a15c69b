import Anna
import Foundation
import Testing

@testable import AnnaDestinations

/// Each vendor's provider against a loopback collector implementing its documented
/// contract: success, per-record rejection, 413, throttling, a 5xx run, an outage.
@Suite struct DestinationDeliveryTests {
    @Test(arguments: Vendor.allCases)
    func deliversEveryEventOnceWithItsMessageIDAsTheDedupID(_ vendor: Vendor) async throws {
        let collector = try VendorCollector()
        defer { collector.stop() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let provider = try vendor.provider(collector, directory: directory.url)
        let envelopes = numberedEnvelopes(0..<50)
        try await provider.receive(envelopes)
        try await provider.flush()
        let accepted = try await collector.accepted()
        #expect(accepted.invalid.isEmpty, "\(accepted.invalid)")
        #expect(accepted.events.map(\.number) == Array(0..<50))
        #expect(accepted.events.map(\.dedupID) == envelopes.map { $0.messageID.uuidString.lowercased() })
        #expect(accepted.events.allSatisfy { $0.vendor == vendor.rawValue && $0.name == "Numbered" })
        #expect(provider.metrics.delivered == 50 && provider.metrics.backlog == 0)
        let gzipped = accepted.wire.allSatisfy { $0.encoding == "gzip" }
        #expect(gzipped == (vendor == .posthog), "only PostHog documents gzip bodies")
        await provider.shutdown()
    }

    @Test(arguments: Vendor.allCases)
    func eventsTheVendorRefusesAreDroppedAndReportedAndTheRestDelivered(_ vendor: Vendor) async throws {
        let collector = try VendorCollector()
        defer { collector.stop() }
        try await collector.control(["rejectNumbers": [3, 7]])
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let reports = Reports()
        var configuration = DurableProvider.Configuration.fast
        configuration.errorHandler = reports.handler
        let provider = try vendor.provider(collector, directory: directory.url, configuration: configuration)
        try await provider.receive(numberedEnvelopes(0..<10))
        try await provider.flush()
        let accepted = try await collector.accepted()
        #expect(accepted.events.compactMap(\.number).sorted() == [0, 1, 2, 4, 5, 6, 8, 9])
        #expect(Set(accepted.events.map(\.dedupID)).count == 8, "none twice")
        #expect(provider.metrics.dropped[.rejected, default: 0] == 2 && provider.metrics.delivered == 8)
        #expect(provider.metrics.backlog == 0)
        let rejected = reports.all.filter { $0.code == .rejected }
        #expect(rejected.reduce(0) { $0 + ($1.events ?? 0) } == 2, "\(reports.all)")
        switch vendor {
        case .amplitude:
            // One 400 naming both; the runs between them sent again.
            #expect(accepted.statuses["400"] == 1, "\(accepted.statuses)")
            #expect(rejected.allSatisfy { $0.response?.contains("event_properties") == true })
        case .mixpanel:
            // strict=1: one 400 naming both, the rest ingested by it.
            #expect(accepted.statuses == ["400": 1], "\(accepted.statuses)")
            #expect(rejected.allSatisfy { $0.response?.contains("properties.n") == true })
        case .posthog:
            // The whole batch refused: split until the refused are alone.
            #expect((accepted.statuses["400"] ?? 0) > 2)
        }
        await provider.shutdown()
    }

    @Test(arguments: Vendor.allCases)
    func aRequestTooLargeIsSplit(_ vendor: Vendor) async throws {
        let collector = try VendorCollector()
        defer { collector.stop() }
        try await collector.control(["maxEvents": 4])
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let provider = try vendor.provider(collector, directory: directory.url)
        try await provider.receive(numberedEnvelopes(0..<16))
        try await provider.flush()
        let accepted = try await collector.accepted()
        #expect(accepted.events.compactMap(\.number) == Array(0..<16))
        #expect((accepted.statuses["413"] ?? 0) >= 3)
        #expect(provider.metrics.dropped.isEmpty && provider.metrics.delivered == 16)
        await provider.shutdown()
    }

    @Test(arguments: Vendor.allCases)
    func throttlingBacksOffAndThenDelivers(_ vendor: Vendor) async throws {
        let collector = try VendorCollector()
        defer { collector.stop() }
        // Amplitude's own signal (throttled_users, throttled_devices); the others' Retry-After.
        let throttle: [String: Any] = vendor == .amplitude ? ["throttle": true] : ["status": 429, "retryAfter": "1"]
        try await collector.control(["script": [throttle]])
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let reports = Reports()
        var configuration = DurableProvider.Configuration.fast
        configuration.errorHandler = reports.handler
        // Amplitude asks for 30 s; the test honours it up to 1 s.
        configuration.maxRetryAfter = .seconds(1)
        let provider = try vendor.provider(collector, directory: directory.url, configuration: configuration)
        let start = ContinuousClock.now
        try await provider.receive(numberedEnvelopes(0..<5))
        try await provider.flush()
        let retrying = try #require(reports.all.first { $0.code == .retrying })
        #expect(retrying.status == 429 && (retrying.delay ?? 0) >= 1, "\(retrying)")
        #expect(await eventually {
            try? await provider.flush()
            return provider.metrics.delivered == 5
        })
        // Lower bounds only, which a busy machine cannot break: the pause was waited out,
        // and no attempt was made during it.
        #expect(ContinuousClock.now - start >= .seconds(1), "not before the pause ends")
        let accepted = try await collector.accepted()
        #expect(accepted.statuses == ["429": 1, "200": 1], "\(accepted.statuses)")
        #expect(try await collector.accepted().events.compactMap(\.number) == Array(0..<5))
        await provider.shutdown()
    }

    @Test(arguments: Vendor.allCases)
    func aRunOf5xxIsRetriedWithTheSameDedupIDs(_ vendor: Vendor) async throws {
        let collector = try VendorCollector()
        defer { collector.stop() }
        try await collector.control(["script": [["status": 500], ["status": 502], ["status": 503]]])
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let provider = try vendor.provider(collector, directory: directory.url)
        let envelopes = numberedEnvelopes(0..<8)
        try await provider.receive(envelopes)
        #expect(await eventually {
            try? await provider.flush()
            return provider.metrics.delivered == 8
        })
        #expect(provider.metrics.retried == 3)
        let accepted = try await collector.accepted()
        #expect(accepted.events.map(\.dedupID) == envelopes.map { $0.messageID.uuidString.lowercased() })
        let bodies = try await collector.bodies()
        #expect(bodies.count == 4, "three failed attempts and the accepted one, each with every event")
        await provider.shutdown()
    }

    @Test(arguments: Vendor.allCases)
    func anOutageKeepsEverythingUntilTheCollectorIsBack(_ vendor: Vendor) async throws {
        // A port nobody listens on, then a collector on it.
        let probe = try VendorCollector()
        let port = probe.port
        probe.stop()
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let reports = Reports()
        var configuration = DurableProvider.Configuration.fast
        configuration.errorHandler = reports.handler
        let offline = try VendorCollector(port: port)
        offline.stop()
        let provider = try vendor.provider(offline, directory: directory.url, configuration: configuration)
        try await provider.receive(numberedEnvelopes(0..<12))
        try await provider.flush()
        #expect(provider.metrics.delivered == 0 && provider.metrics.backlog == 12)
        #expect(reports.all.contains { $0.code == .retrying && $0.status == nil })
        let collector = try VendorCollector(port: port)
        defer { collector.stop() }
        #expect(await eventually {
            try? await provider.flush()
            return provider.metrics.delivered == 12
        })
        #expect(try await collector.accepted().events.compactMap(\.number) == Array(0..<12))
        #expect(provider.metrics.dropped.isEmpty)
        await provider.shutdown()
    }

    /// One queue per provider: with Mixpanel's collector down, Amplitude and PostHog
    /// deliver, and Mixpanel catches up afterwards, losing nothing.
    @Test func oneCollectorDownDelaysNoOther() async throws {
        let collector = try VendorCollector()
        defer { collector.stop() }
        let down = try VendorCollector()
        down.stop()
        let folders = (0..<3).map { _ in TemporaryDirectory() }
        defer { folders.forEach { $0.remove() } }
        let amplitude = try Vendor.amplitude.provider(collector, directory: folders[0].url)
        let mixpanel = try Vendor.mixpanel.provider(down, directory: folders[1].url)
        let posthog = try Vendor.posthog.provider(collector, directory: folders[2].url)
        let analytics = AnalyticsService(providers: [amplitude, mixpanel, posthog])
        for number in 0..<20 { analytics.report(AnalyticsEvent(name: "Numbered", parameters: ["n": .int(number)])) }
        await analytics.flush()
        #expect(amplitude.metrics.delivered == 20 && posthog.metrics.delivered == 20)
        #expect(mixpanel.metrics.delivered == 0 && mixpanel.metrics.backlog == 20)
        await analytics.shutdown()
    }
}
