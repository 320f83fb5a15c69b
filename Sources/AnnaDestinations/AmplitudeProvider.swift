import Anna
import Foundation

/// Delivers events straight to Amplitude's HTTP V2 API (or its Batch API), durably,
/// without Amplitude's SDK: the same durable queue, upload state machine, back-off,
/// offline handling and kill -9 guarantee as ``HTTPBatchProvider``, with one queue of
/// its own.
///
/// ```swift
/// let amplitude = try AmplitudeProvider(
///     apiKey: "<project API key>", storage: .directory(amplitudeFolder), endpoint: .httpAPIEU)
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
    /// Where events go: a region's HTTP V2 or Batch API, or another `https` URL (a proxy).
    public struct Endpoint: Sendable, Hashable {
        /// The URL batches are posted to.
        public let url: URL

        /// `https://api2.amplitude.com/2/httpapi`: the HTTP V2 API, US data center.
        public static let httpAPI = Endpoint("https://api2.amplitude.com/2/httpapi")
        /// `https://api.eu.amplitude.com/2/httpapi`: the HTTP V2 API, EU data center.
        public static let httpAPIEU = Endpoint("https://api.eu.amplitude.com/2/httpapi")
        /// `https://api2.amplitude.com/batch`: the Batch API (higher per-device rate limits), US.
        public static let batchAPI = Endpoint("https://api2.amplitude.com/batch")
        /// `https://api.eu.amplitude.com/batch`: the Batch API, EU.
        public static let batchAPIEU = Endpoint("https://api.eu.amplitude.com/batch")

        /// Another URL taking the same body, e.g. a proxy: `https`, or `http` on loopback.
        /// - Parameter url: The URL batches are posted to.
        /// - Returns: The endpoint.
        public static func custom(_ url: URL) -> Endpoint { Endpoint(url: url) }

        private init(url: URL) {
            self.url = url
        }

        private init(_ literal: String) {
            url = URL(string: literal) ?? URL(fileURLWithPath: "/")
        }
    }

    /// `AmplitudeProvider`.
    public let name = "AmplitudeProvider"
    /// Where events go.
    public let endpoint: Endpoint
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
    ///   - endpoint: The region's HTTP V2 API by default, US.
    ///   - groupType: The group type a `group` call sets (`groups` of `$groupidentify`).
    ///   - options: PII, naming and profile; ``ProviderProfile/amplitude`` by default.
    ///   - configuration: Flush triggers, retries and the queue; batches are capped at
    ///     Amplitude's 2,000 events and 1 MB.
    /// - Throws: ``DestinationError`` with code ``DestinationError/Code/missingKey`` for an
    ///   empty key; `DeliveryError` for an insecure endpoint or storage that cannot be opened.
    public init(
        apiKey: String,
        storage: DeliveryStorage,
        endpoint: Endpoint = .httpAPI,
        groupType: String = "group",
        options: ProviderOptions = ProviderOptions(profile: .amplitude),
        configuration: HTTPBatchProvider.Configuration = HTTPBatchProvider.Configuration()
    ) throws {
        guard !apiKey.isEmpty else { throw DestinationError(.missingKey, "AmplitudeProvider needs the project's API key") }
        let wire = AmplitudeWire(endpoint: endpoint.url, apiKey: apiKey, groupType: groupType)
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
