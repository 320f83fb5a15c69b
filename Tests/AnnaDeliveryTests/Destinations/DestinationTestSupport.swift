import Anna
import Foundation

@testable import AnnaDestinations

/// The three vendors, made against one loopback collector.
enum Vendor: String, CaseIterable, CustomStringConvertible, Sendable {
    case amplitude, mixpanel, posthog

    var description: String { rawValue }

    /// A provider of this vendor sending to `collector`, on `directory`.
    func provider(
        _ collector: VendorCollector, directory: URL, configuration: DurableProvider.Configuration = .fast
    ) throws -> DurableProvider {
        try DurableProvider(
            collector: self.collector(collector.base), storage: .directory(directory), options: ProviderOptions(),
            configuration: configuration)
    }

    /// This vendor's collector at `base`.
    func collector(_ base: URL, key: String = VendorCollector.key) -> DurableProvider.Collector {
        switch self {
        case .amplitude: .amplitude(apiKey: key, region: .custom(base))
        case .mixpanel: .mixpanel(token: key, region: .custom(base))
        case .posthog: .posthog(projectAPIKey: key, host: .selfHosted(base))
        }
    }
}

extension DurableProvider.Configuration {
    /// Uploads on flush only, retries within milliseconds.
    static var fast: Self {
        DurableProvider.Configuration(
            flushAt: 1_000_000, flushInterval: .seconds(3600), initialRetryDelay: .milliseconds(10),
            maxRetryDelay: .milliseconds(50), requestTimeout: .seconds(5))
    }
}

/// Numbered track events with a fixed session and context, as the service makes them.
func numberedEnvelopes(_ numbers: Range<Int>, userID: String? = "user-42") -> [AnalyticsEnvelope] {
    numbers.map { number in
        AnalyticsEnvelope(
            event: AnalyticsEvent(name: "Numbered", parameters: ["n": .int(number)]), messageID: UUID(),
            timestamp: Date(), sessionID: 1_763_895_600_000, anonymousID: "anon-device-1", userID: userID,
            context: AnalyticsContext(
                app: .init(name: "Shop", version: "1.2", build: "7"), device: .init(model: "iPhone16,1", manufacturer: "Apple"),
                os: .init(name: "iOS", version: "18.1"), locale: "en_US", timezone: "Europe/Paris"))
    }
}

/// Collects what a provider reports, from its threads.
final class Reports: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [DeliveryError] = []
    var handler: @Sendable (DeliveryError) -> Void { { [self] error in lock.withLock { errors.append(error) } } }
    var all: [DeliveryError] { lock.withLock { errors } }
}
