import Anna
import Foundation

/// Delivers events straight to Amplitude's HTTP V2 API (or its Batch API), durably,
/// without Amplitude's SDK: the same durable queue, upload state machine, back-off,
/// offline handling and kill -9 guarantee as ``HTTPBatchProvider``, with one queue of
/// its own.
///
/// ```swift
/// let amplitude = try AmplitudeProvider(
///     apiKey: "<project API key>", storage: .directory(amplitudeFolder), region: .eu)
/// let analytics = AnalyticsService(providers: [amplitude])
/// ```
///
/// The wire format follows https://amplitude.com/docs/apis/analytics/http-v2 and
/// https://amplitude.com/docs/apis/analytics/batch-event-upload, read 2026-11-27 from
/// the reference as published: events, `$identify` for traits, `$groupidentify` for
/// groups, `insert_id` from Anna's message id. Screens arrive as `Screen Viewed`
/// events; aliases are not sent (Amplitude maps users through a separate API).
/// The Destinations article has the mapping table and what each answer does.
///
/// The API key is the project's client-side key, which Amplitude's own app SDKs
/// ship; never give it the project's secret key (Amplitude cannot tell them apart by
/// their form, so the provider cannot refuse it).
public final class AmplitudeProvider: AnalyticsProvider {
    /// Amplitude's data center, or another host taking its APIs (a proxy).
    public struct Region: Sendable, Hashable {
        /// The host's base URL; the ``API`` adds its path.
        public let baseURL: URL

        /// `https://api2.amplitude.com`: Amplitude's US data center.
        public static let us = Region("https://api2.amplitude.com")
        /// `https://api.eu.amplitude.com`: Amplitude's EU data center.
        public static let eu = Region("https://api.eu.amplitude.com")

        /// Another host taking the same paths and body, e.g. a proxy: `https`, or
        /// `http` on loopback.
        /// - Parameter baseURL: The host's base URL, e.g. `https://amplitude-proxy.example.com`.
        /// - Returns: The region.
        public static func custom(_ baseURL: URL) -> Region { Region(baseURL: baseURL) }

        private init(baseURL: URL) {
            self.baseURL = baseURL
        }

        private init(_ literal: String) {
            baseURL = URL(string: literal) ?? URL(fileURLWithPath: "/")
        }
    }

    /// Which of Amplitude's ingestion APIs takes the events; both take the same body.
    public enum API: Sendable, Hashable {
        /// The HTTP V2 API, `/2/httpapi`.
        case httpV2
        /// The Batch Event Upload API, `/batch`: higher per-device rate limits, for
        /// backlogs and server-side sending.
        case batch

        var path: String {
            switch self {
            case .httpV2: "2/httpapi"
            case .batch: "batch"
            }
        }
    }

    /// `AmplitudeProvider`.
    public let name = "AmplitudeProvider"
    /// The URL batches are posted to: the region's base URL and the API's path.
    public let endpoint: URL
    /// The configuration, with batches within Amplitude's limits: at most 2,000 events
    /// and 1 MB a request.
    public let configuration: HTTPBatchProvider.Configuration
    /// PII and naming for this provider; its `receivedKinds` are `track`, `identify`
    /// and `group` (screens arrive as `Screen Viewed` events).
    public let options: ProviderOptions
    private let delivery: DurableDelivery

    /// Creates a provider and starts its writer and uploader.
    /// - Parameters:
    ///   - apiKey: The project's API key (client-side; not the secret key).
    ///   - storage: Where events wait; a folder of its own, apart from other providers'.
    ///   - region: Amplitude's US data center by default.
    ///   - api: The HTTP V2 API by default; ``API/batch`` for the Batch API.
    ///   - groupType: The group type a `group` call sets (`groups` of `$groupidentify`).
    ///   - options: PII, naming and profile; ``ProviderProfile/amplitude`` by default.
    ///   - configuration: Flush triggers, retries and the queue; batches are capped at
    ///     Amplitude's 2,000 events and 1 MB.
    /// - Throws: ``DestinationError`` with code ``DestinationError/Code/missingKey`` for an
    ///   empty key; `DeliveryError` for an insecure endpoint or storage that cannot be opened.
    public init(
        apiKey: String,
        storage: DeliveryStorage,
        region: Region = .us,
        api: API = .httpV2,
        groupType: String = "group",
        options: ProviderOptions = ProviderOptions(profile: .amplitude),
        configuration: HTTPBatchProvider.Configuration = HTTPBatchProvider.Configuration()
    ) throws {
        guard !apiKey.isEmpty else { throw DestinationError(.missingKey, "AmplitudeProvider needs the project's API key") }
        let endpoint = region.baseURL.appendingPathComponent(api.path)
        let wire = AmplitudeWire(endpoint: endpoint, apiKey: apiKey, groupType: groupType)
        var configuration = configuration
        configuration.maxBatchCount = min(configuration.maxBatchCount, 2000)
        configuration.maxBatchSize = min(configuration.maxBatchSize, 1_000_000)
        self.endpoint = endpoint
        self.configuration = configuration
        var options = options
        options.receivedKinds = wire.receivedKinds
        self.options = options
        delivery = try DurableDelivery(wire: wire, storage: storage, configuration: configuration)
    }

    /// Encodes the events and appends them to the provider's durable queue.
    /// - Parameter batch: Events in report order.
    public func receive(_ batch: [AnalyticsEnvelope]) async throws { await delivery.receive(batch) }
    /// Persists what was received and waits for an upload round (`HTTPBatchProvider.flush()`).
    public func flush() async throws { await delivery.flush() }
    /// Deletes every event not yet delivered.
    public func purge() async { await delivery.purge() }
    /// Persists, makes a last attempt unless backing off, stops and releases the storage.
    public func shutdown() async { await delivery.shutdown() }
    /// Syncs, releases the storage's locks and holds uploads, for an app about to be suspended.
    public func suspend() async { await delivery.suspend() }
    /// Retakes the storage and resumes after ``suspend()``.
    public func resume() async { await delivery.resume() }
    /// Tells the uploader what the device's network offers (`HTTPBatchProvider.networkPathChanged(_:)`).
    /// - Parameter path: The current path.
    public func networkPathChanged(_ path: NetworkPath) { delivery.networkPathChanged(path) }
    /// Waits until every event received before the call is written and synced.
    public func waitUntilPersisted() async { await delivery.waitUntilPersisted() }
    /// What the provider counted since it started.
    public var metrics: HTTPBatchProvider.Metrics { delivery.metrics }
}
