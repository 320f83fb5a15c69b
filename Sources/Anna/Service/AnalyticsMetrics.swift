/// Counts of what a service did, read with ``AnalyticsService/metrics``.
public struct AnalyticsMetrics: Sendable, Hashable {
    /// Events passed to `report`.
    public var reported = 0
    /// Events that went through the pipeline to the providers.
    public var forwarded = 0
    /// Events not forwarded, by reason.
    public var dropped: [DropReason: Int] = [:]
    /// Events whose values broke their constraints, whatever the policy did.
    public var violations = 0
    /// Events each provider received without throwing, by provider name.
    public var delivered: [String: Int] = [:]
    /// Events in batches a provider threw on, by provider name.
    public var failed: [String: Int] = [:]
    /// Events a provider's profile changed or kept from it, by provider name: each
    /// event for which the provider's `ProviderProfile` reported at least one
    /// ``ProfileViolation`` (a parameter dropped, cut, flattened, or the whole event
    /// dropped), counted once however many it reported. The violations themselves
    /// reach ``AnalyticsService/Configuration/errorHandler`` as
    /// ``AnalyticsError`` with the code ``AnalyticsError/Code/providerLimit``.
    public var limited: [String: Int] = [:]
    /// Events dropped for one provider because its lane was full
    /// (``AnalyticsService/Configuration/providerLimit``), by provider name.
    public var overflowed: [String: Int] = [:]
    /// Every event a provider will never deliver, by provider name and reason: the
    /// number to alert on. It sums the losses counted in three places, from the intake
    /// to the disk: ``dropped`` (the service dropped the event before any provider saw
    /// it, so every provider lost it), ``overflowed`` (under ``DropReason/overflow``)
    /// and what the provider dropped itself after receiving it
    /// (``AnalyticsProvider/droppedEvents``: a ``DurableProvider``'s disk and age caps,
    /// refusals, failed writes, whatever its collector). Some reasons are the app's choice (``DropReason/consent``,
    /// ``DropReason/optOut``, ``DropReason/purged``, ``DropReason/stage``); the others
    /// are losses to look into. Events in batches a provider threw on are in ``failed``.
    public var lost: [String: [DropReason: Int]] = [:]

    /// Creates empty counts.
    package init() {}

    /// Removed: a second spelling of `dropped[reason, default: 0]`.
    @available(*, unavailable, message: "read dropped[reason, default: 0]")
    public func dropped(_ reason: DropReason) -> Int { dropped[reason, default: 0] }
}
