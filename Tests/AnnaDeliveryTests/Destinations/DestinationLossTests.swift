import Anna
import Foundation
import Testing

@testable import AnnaDestinations

/// Issue 40: a vendor's losses reach the service's one loss count. Before the vendors
/// were collectors of the one `DurableProvider`, each refused event was in the
/// provider's own `metrics.dropped` and in the error handler, but
/// `analytics.metrics.lost` stayed empty: only Segment's provider was read.
@Suite struct DestinationLossTests {
    @Test(arguments: Vendor.allCases)
    func theEventsAVendorRefusesAreInTheServicesLostCount(_ vendor: Vendor) async throws {
        let collector = try VendorCollector()
        defer { collector.stop() }
        try await collector.control(["rejectNumbers": [3, 11, 19, 27]])
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let reports = Reports()
        var configuration = DurableProvider.Configuration.fast
        configuration.errorHandler = reports.handler
        let provider = try vendor.provider(collector, directory: directory.url, configuration: configuration)
        let analytics = AnalyticsService(providers: [provider])
        for number in 0..<30 { analytics.report(AnalyticsEvent(name: "Numbered", parameters: ["n": .int(number)])) }
        await analytics.flush()

        let accepted = try await collector.accepted()
        #expect(accepted.events.compactMap(\.number).count == 26, "\(accepted.events.compactMap(\.number))")
        #expect(provider.metrics.dropped == [.rejected: 4])
        #expect(reports.all.filter { $0.code == .rejected }.reduce(0) { $0 + ($1.events ?? 0) } == 4)
        let lost = analytics.metrics.lost
        #expect(lost[provider.name] == [.rejected: 4], "\(lost)")
        #expect(provider.name == "\(vendor.providerName)")
        await analytics.shutdown()
    }

    @Test func everyCollectorIsOneProviderType() throws {
        // The same members for every vendor: one network path for all, one configuration.
        let providers: [DurableProvider] = try Vendor.allCases.map { vendor in
            try DurableProvider(collector: vendor.collector(URL(string: "http://127.0.0.1:9")!), storage: .memory(limit: 1 << 20))
        }
        for provider in providers { provider.networkPathChanged(.unreachable) }
        #expect(providers.map(\.name) == ["AmplitudeProvider", "MixpanelProvider", "PostHogProvider"])
        #expect(providers.map(\.collector.name) == providers.map(\.name))
    }
}

extension Vendor {
    /// The provider's name in metrics.
    var providerName: String {
        switch self {
        case .amplitude: "AmplitudeProvider"
        case .mixpanel: "MixpanelProvider"
        case .posthog: "PostHogProvider"
        }
    }
}
