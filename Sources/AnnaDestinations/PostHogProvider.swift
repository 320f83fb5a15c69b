import Anna
import Foundation

/// Delivers events straight to PostHog's capture API (`/batch/`), durably, without
/// PostHog's SDK: the same durable queue, upload state machine, back-off, offline
/// handling, gzip and kill -9 guarantee as ``HTTPBatchProvider``, with one queue of
/// its own.
///
/// ```swift
/// let posthog = try PostHogProvider(
///     projectAPIKey: "phc_…", storage: .directory(posthogFolder), host: .eu)
/// let analytics = AnalyticsService(providers: [posthog])
/// ```
///
/// The wire format follows https://posthog.com/docs/api/capture, read 2026-11-27
/// from the reference as published: `distinct_id`, `uuid` from Anna's message id,
/// `$screen` with `$screen_name`, `$identify` with `$set`, `$groupidentify` with
/// `$group_type`, `$group_key` and `$group_set`, `$create_alias`. The Destinations
/// article has the mapping table and what each answer does.
///
/// The project API key (`phc_…`) is public: PostHog's own app SDKs ship it. A
/// personal API key (`phx_…`) reads and changes the whole organisation's data and is
/// refused.
public final class PostHogProvider: AnalyticsProvider {
    /// The PostHog instance: a cloud region's ingestion host, or a self-hosted one.
    public struct Host: Sendable, Hashable {
        /// The instance's base URL; batches go to its `/batch/`.
        public let url: URL

        /// `https://us.i.posthog.com`: PostHog Cloud US.
        public static let us = Host("https://us.i.posthog.com")
        /// `https://eu.i.posthog.com`: PostHog Cloud EU.
        public static let eu = Host("https://eu.i.posthog.com")

        /// A self-hosted instance or a reverse proxy: `https`, or `http` on loopback.
        /// - Parameter url: The instance's base URL, e.g. `https://posthog.example.com`.
        /// - Returns: The host.
        public static func selfHosted(_ url: URL) -> Host { Host(url: url) }

        private init(url: URL) {
            self.url = url
        }

        private init(_ literal: String) {
            url = URL(string: literal) ?? URL(fileURLWithPath: "/")
        }

        /// `<url>/batch/`.
        var batchURL: URL { url.appendingPathComponent("batch").appendingPathComponent("") }
    }

    /// `PostHogProvider`.
    public let name = "PostHogProvider"
    /// The instance events go to.
    public let host: Host
    /// The configuration.
    public let configuration: HTTPBatchProvider.Configuration
    /// PII and naming for this provider; it receives every kind of call.
    public let options: ProviderOptions
    private let delivery: DurableDelivery

    /// Creates a provider and starts its writer and uploader.
    /// - Parameters:
    ///   - projectAPIKey: The project API key, `phc_…` (public).
    ///   - storage: Where events wait; a folder of its own, apart from other providers'.
    ///   - host: PostHog Cloud US by default.
    ///   - groupType: The group type a `group` call sets (`$group_type`).
    ///   - options: PII, naming and profile; ``ProviderProfile/posthog`` by default.
    ///   - configuration: Flush triggers, retries and the queue.
    /// - Throws: ``DestinationError`` with code ``DestinationError/Code/serverSecret`` for a
    ///   personal API key (`phx_…`), ``DestinationError/Code/missingKey`` for an empty
    ///   one; `DeliveryError` for an insecure host or storage that cannot be opened.
    public init(
        projectAPIKey: String,
        storage: DeliveryStorage,
        host: Host = .us,
        groupType: String = "company",
        options: ProviderOptions = ProviderOptions(profile: .posthog),
        configuration: HTTPBatchProvider.Configuration = HTTPBatchProvider.Configuration()
    ) throws {
        guard !projectAPIKey.isEmpty else { throw DestinationError(.missingKey, "PostHogProvider needs the project API key (phc_…)") }
        guard !projectAPIKey.hasPrefix("phx_") else {
            throw DestinationError(
                .serverSecret,
                "PostHogProvider was given a personal API key (phx_…), a server secret that must never ship in an app; "
                    + "use the project API key (phc_…) from the project's settings")
        }
        let wire = PostHogWire(endpoint: host.batchURL, projectAPIKey: projectAPIKey, groupType: groupType)
        var configuration = configuration
        configuration.maxBatchSize = min(configuration.maxBatchSize, 20_000_000)
        configuration.maxEventSize = min(configuration.maxEventSize, 1_000_000)
        self.host = host
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
