/// A destination for analytics events: an SDK adapter, a log, an HTTP collector.
///
/// The service gives every provider its own serial lane: batches arrive in the order
/// events were reported, one call at a time, on a queue of the provider's own (on
/// iOS and tvOS 18, macOS 15 and Linux; earlier systems run it on Swift's shared
/// pool, see <doc:Limits>), so a provider that is slow, throws or blocks delays no
/// other provider and makes no other provider lose events.
///
/// ```swift
/// final class FirebaseProvider: AnalyticsProvider {
///     let options = ProviderOptions(mapper: SnakeCaseEventMapper(), profile: .firebase)
///     func receive(_ batch: [AnalyticsEnvelope]) async throws {
///         for envelope in batch {
///             Analytics.logEvent(envelope.event.name, parameters: envelope.event.parameters.mapValues(\.description))
///         }
///     }
/// }
/// ```
public protocol AnalyticsProvider: Sendable {
    /// The provider's name in errors and metrics; the type's name by default.
    var name: String { get }
    /// How the service prepares events for this provider: naming, limits and PII.
    var options: ProviderOptions { get }
    /// Takes a batch of events, in report order.
    ///
    /// The events carry the names of ``ProviderOptions/mapper`` and, unless
    /// ``ProviderOptions/receivesPII`` is set, no PII in the clear. A thrown error
    /// goes to the service's error handler with the batch; the service goes on with
    /// the next batch. A provider that must not lose events keeps them itself before
    /// returning (see the durable HTTP provider).
    func receive(_ batch: [AnalyticsEnvelope]) async throws
    /// Sends what the provider holds, when it holds anything. Called by
    /// ``AnalyticsService/flush()`` after every earlier batch was received.
    func flush() async throws
    /// Deletes what the provider holds and has not sent, because the user opted out.
    func purge() async
    /// Called once when the service shuts down, after the last batch.
    func shutdown() async
    /// Called when the app is about to be suspended in the background, after the
    /// service flushed: release what a suspended process must not hold (file locks
    /// in a shared container). Not called between `receive` calls of its lane.
    func suspend() async
    /// Called when the app comes back to the foreground after ``suspend()``.
    func resume() async
    /// Events the provider received and will never deliver, by reason: what it
    /// dropped itself after receiving them (a queue's caps, a collector's refusals,
    /// failed writes, a purge). The service adds them to ``AnalyticsMetrics/lost``
    /// under the provider's ``name``, so an app reads every loss in one place. Counts
    /// only grow; read from any thread, so keep them behind a lock. None by default.
    var droppedEvents: [DropReason: Int] { get }
}

extension AnalyticsProvider {
    /// The type's name.
    public var name: String { String(describing: type(of: self)) }
    /// No mapping, no profile, no PII.
    public var options: ProviderOptions { ProviderOptions() }
    /// Does nothing.
    public func flush() async throws {}
    /// Does nothing.
    public func purge() async {}
    /// Does nothing.
    public func shutdown() async {}
    /// Does nothing.
    public func suspend() async {}
    /// Does nothing.
    public func resume() async {}
    /// None: a provider that drops nothing after receiving it.
    public var droppedEvents: [DropReason: Int] { [:] }
}

/// How the service prepares events for one provider.
public struct ProviderOptions: Sendable {
    /// Renames events and parameters, e.g. ``SnakeCaseEventMapper`` for Firebase.
    public var mapper: (any EventMapper)?
    /// Limits enforced after mapping, the same the generator checks at build time.
    public var profile: ProviderProfile?
    /// Whether the provider may receive the parameters a spec marks `pii`.
    public var receivesPII: Bool
    /// What happens to PII for a provider that may not receive it.
    public var piiHandling: PIIHandling
    /// The calls the provider takes. Only ``AnalyticsEnvelope/Kind/track`` by default,
    /// for SDKs that only log events: a screen then reaches it as a track event named
    /// `Screen Viewed` with the screen's name in a `name` parameter, and `identify`,
    /// `group` and `alias` do not reach it (the user id is on every event). Providers
    /// that send Segment's calls, like ``DurableProvider``, take them all.
    public var receivedKinds: Set<AnalyticsEnvelope.Kind>

    /// Creates options.
    /// - Parameters:
    ///   - mapper: Renames events and parameters; none by default.
    ///   - profile: Limits to enforce after mapping; none by default.
    ///   - receivesPII: Whether the provider may receive PII; `false` by default.
    ///   - piiHandling: What happens to PII otherwise; removed by default.
    ///   - receivedKinds: The calls the provider takes; `track` only by default.
    public init(
        mapper: (any EventMapper)? = nil,
        profile: ProviderProfile? = nil,
        receivesPII: Bool = false,
        piiHandling: PIIHandling = .remove,
        receivedKinds: Set<AnalyticsEnvelope.Kind> = [.track]
    ) {
        self.receivedKinds = receivedKinds
        self.mapper = mapper
        self.profile = profile
        self.receivesPII = receivesPII
        self.piiHandling = piiHandling
    }
}

/// What happens to a PII parameter for a provider that may not receive it.
public enum PIIHandling: Sendable, Hashable {
    /// The parameter is removed.
    case remove
    /// The value is replaced by the hexadecimal SHA-256 of the salt and the value's
    /// text, so equal values stay equal without being readable.
    case hash(salt: String)
}

/// Renames events and parameters for one provider.
public protocol EventMapper: Sendable {
    /// The provider's name for an event.
    /// - Parameter eventName: The name as declared in the spec.
    func name(for eventName: String) -> String
    /// The provider's name for a parameter.
    /// - Parameter parameterName: The name as declared in the spec.
    func parameterName(for parameterName: String) -> String
}

extension SnakeCaseEventMapper: EventMapper {}
