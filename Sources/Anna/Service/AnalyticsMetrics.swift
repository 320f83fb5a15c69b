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

    /// Creates empty counts.
    package init() {}

    /// The number of events dropped for one reason.
    public func dropped(_ reason: DropReason) -> Int { dropped[reason, default: 0] }
}
