import Anna
import Foundation

/// Delivers events straight to Mixpanel's Ingestion API (`/track`), durably, without
/// Mixpanel's SDK: the same durable queue, upload state machine, back-off, offline
/// handling and kill -9 guarantee as ``HTTPBatchProvider``, with one queue of its own.
///
/// ```swift
/// let mixpanel = try MixpanelProvider(
///     token: "<project token>", storage: .directory(mixpanelFolder), region: .eu)
/// let analytics = AnalyticsService(providers: [mixpanel])
/// ```
///
/// The wire format follows https://developer.mixpanel.com/reference/track-event and
/// https://docs.mixpanel.com/docs/tracking-methods/id-management/identifying-users-simplified,
/// read 2026-11-27 from the reference as published: `/track?strict=1`, the project
/// token in each event, `distinct_id`, `$device_id` and `$user_id` as Simplified ID
/// Merge asks, `$insert_id` from Anna's message id, `time` in milliseconds. Screens
/// arrive as `Screen Viewed` events; `identify` sends an `$identify` event that links
/// the user and device ids; its traits, groups and aliases are not sent (profiles and
/// groups are Mixpanel's `/engage` and `/groups`). The Destinations article has the
/// mapping table and what each answer does.
///
/// Only `/track` with the project token: the token is public (Mixpanel's own app SDKs
/// ship it). `/import`, which needs a service account's secret or the project secret,
/// is not offered: a server secret must never ship in an app, and a server or tool
/// sending history uses Mixpanel's own server libraries. Mixpanel's `/track` refuses
/// events older than 5 days: an event kept offline longer is rejected by Mixpanel,
/// dropped and reported.
public final class MixpanelProvider: AnalyticsProvider {
    /// Mixpanel's data residency region, or another host taking its API (a proxy).
    public struct Region: Sendable, Hashable {
        /// The host's base URL; events go to its `/track?strict=1`.
        public let baseURL: URL

        /// `https://api.mixpanel.com`: US data residency.
        public static let us = Region("https://api.mixpanel.com")
        /// `https://api-eu.mixpanel.com`: EU data residency.
        public static let eu = Region("https://api-eu.mixpanel.com")
        /// `https://api-in.mixpanel.com`: India data residency.
        public static let india = Region("https://api-in.mixpanel.com")

        /// Another host taking `/track`, e.g. a proxy: `https`, or `http` on loopback.
        /// - Parameter baseURL: The host's base URL, e.g. `https://mixpanel-proxy.example.com`.
        /// - Returns: The region.
        public static func custom(_ baseURL: URL) -> Region { Region(baseURL: baseURL) }

        private init(baseURL: URL) {
            self.baseURL = baseURL
        }

        private init(_ literal: String) {
            baseURL = URL(string: literal) ?? URL(fileURLWithPath: "/")
        }

        /// `<base>/track?strict=1`: per-record errors for invalid events.
        var trackURL: URL {
            let base = baseURL.absoluteString.hasSuffix("/") ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
            return URL(string: base + "/track?strict=1") ?? baseURL
        }
    }

    /// `MixpanelProvider`.
    public let name = "MixpanelProvider"
    /// The URL batches are posted to: the region's `/track?strict=1`.
    public let endpoint: URL
    /// The configuration, with batches within Mixpanel's limits: at most 2,000 events
    /// and 1 MB a request.
    public let configuration: HTTPBatchProvider.Configuration
    /// PII and naming for this provider; its `receivedKinds` are `track` and
    /// `identify` (screens arrive as `Screen Viewed` events).
    public let options: ProviderOptions
    private let delivery: DurableDelivery

    /// Creates a provider and starts its writer and uploader.
    /// - Parameters:
    ///   - token: The project token (client-side; not the project secret).
    ///   - storage: Where events wait; a folder of its own, apart from other providers'.
    ///   - region: US data residency by default.
    ///   - options: PII, naming and profile; ``ProviderProfile/mixpanel`` by default.
    ///   - configuration: Flush triggers, retries and the queue; batches are capped at
    ///     Mixpanel's 2,000 events and 1 MB.
    /// - Throws: ``DestinationError`` with code ``DestinationError/Code/missingKey`` for an
    ///   empty token; `DeliveryError` for an insecure endpoint or storage that cannot be opened.
    public init(
        token: String,
        storage: DeliveryStorage,
        region: Region = .us,
        options: ProviderOptions = ProviderOptions(profile: .mixpanel),
        configuration: HTTPBatchProvider.Configuration = HTTPBatchProvider.Configuration()
    ) throws {
        guard !token.isEmpty else { throw DestinationError(.missingKey, "MixpanelProvider needs the project token") }
        let endpoint = region.trackURL
        let wire = MixpanelWire(endpoint: endpoint, token: token)
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
