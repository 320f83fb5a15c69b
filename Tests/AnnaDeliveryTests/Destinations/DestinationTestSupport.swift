import Anna
import Foundation

@testable import AnnaDestinations

/// The three vendors, made against one loopback collector.
enum Vendor: String, CaseIterable, CustomStringConvertible, Sendable {
    case amplitude, mixpanel, posthog

    var description: String { rawValue }

    /// A provider of this vendor sending to `collector`, on `directory`.
    func provider(
        _ collector: VendorCollector, directory: URL, configuration: HTTPBatchProvider.Configuration = .fast
    ) throws -> any DestinationUnderTest {
        let storage = DeliveryStorage.directory(directory)
        switch self {
        case .amplitude:
            return try AmplitudeProvider(
                apiKey: VendorCollector.key, storage: storage, region: .custom(collector.base),
                options: ProviderOptions(), configuration: configuration)
        case .mixpanel:
            return try MixpanelProvider(
                token: VendorCollector.key, storage: storage, region: .custom(collector.base), options: ProviderOptions(),
                configuration: configuration)
        case .posthog:
            return try PostHogProvider(
                projectAPIKey: VendorCollector.key, storage: storage, host: .selfHosted(collector.base),
                options: ProviderOptions(), configuration: configuration)
        }
    }
}

/// What the tests use of every destination provider.
protocol DestinationUnderTest: AnalyticsProvider {
    var metrics: HTTPBatchProvider.Metrics { get }
    func waitUntilPersisted() async
    func networkPathChanged(_ path: NetworkPath)
}

extension AmplitudeProvider: DestinationUnderTest {}
extension MixpanelProvider: DestinationUnderTest {}
extension PostHogProvider: DestinationUnderTest {}

extension HTTPBatchProvider.Configuration {
    /// Uploads on flush only, retries within milliseconds.
    static var fast: Self {
        HTTPBatchProvider.Configuration(
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
