import Foundation
import Logging

extension AnalyticsService {
    /// How a service collects, checks and enriches events.
    public struct Configuration: Sendable {
        /// The consent categories granted when the service starts. `necessary` and
        /// `analytics` by default; `marketing` and custom categories need a grant.
        public var grantedConsent: Set<ConsentCategory>
        /// What happens to events whose values break their spec's constraints.
        public var violationPolicy: ViolationPolicy
        /// Stages that run on the service's pipeline, in order within their phase.
        public var stages: [any AnalyticsStage]
        /// Where the events come from; ``AnalyticsContext/current()`` by default.
        public var context: AnalyticsContext
        /// The installation's anonymous identifier; a new UUID by default. Pass a
        /// stored one so that it survives restarts.
        public var anonymousID: String
        /// A session ends after this much time without events.
        public var sessionTimeout: Duration
        /// Receives provider failures, constraint violations and provider-limit
        /// changes. Called on the service's threads; keep it short.
        public var errorHandler: (@Sendable (AnalyticsError) -> Void)?
        /// The logger for Anna's own messages. They name events, parameters and
        /// constraints, never values.
        public var logger: Logger
        /// What the service holds between `report` and the provider lanes: events not yet
        /// taken by the pipeline or being processed by it. 10,000 events or 8 MiB by
        /// default. Beyond it `report` drops the event and counts it (``DropReason/overflow``).
        public var intakeLimit: MemoryLimit
        /// What each provider's lane holds while its provider is busy. 10,000 events or
        /// 8 MiB by default. Beyond it the lane drops the newest events for that provider
        /// only, counts them (``AnalyticsMetrics/overflowed``) and reports them
        /// (``AnalyticsError/providerOverflow(provider:events:)``).
        public var providerLimit: MemoryLimit

        /// Creates a configuration.
        /// - Parameters:
        ///   - grantedConsent: Categories granted at start.
        ///   - violationPolicy: What happens to events that break constraints.
        ///   - stages: Your own pipeline stages.
        ///   - context: Where the events come from.
        ///   - anonymousID: The installation's anonymous identifier.
        ///   - sessionTimeout: Inactivity after which a new session starts.
        ///   - errorHandler: Receives failures and violations.
        ///   - logger: The logger for Anna's own messages.
        ///   - intakeLimit: What the service holds before the provider lanes.
        ///   - providerLimit: What each provider's lane holds.
        public init(
            grantedConsent: Set<ConsentCategory> = [.necessary, .analytics],
            violationPolicy: ViolationPolicy = .standard,
            stages: [any AnalyticsStage] = [],
            context: AnalyticsContext = .current(),
            anonymousID: String = UUID().uuidString.lowercased(),
            sessionTimeout: Duration = .seconds(30 * 60),
            errorHandler: (@Sendable (AnalyticsError) -> Void)? = nil,
            logger: Logger = Logger(label: "anna"),
            intakeLimit: MemoryLimit = MemoryLimit(events: 10_000, bytes: 8 << 20),
            providerLimit: MemoryLimit = MemoryLimit(events: 10_000, bytes: 8 << 20)
        ) {
            self.grantedConsent = grantedConsent
            self.violationPolicy = violationPolicy
            self.stages = stages
            self.context = context
            self.anonymousID = anonymousID
            self.sessionTimeout = sessionTimeout
            self.errorHandler = errorHandler
            self.logger = logger
            self.intakeLimit = intakeLimit
            self.providerLimit = providerLimit
        }
    }
}

/// Something that went wrong on the way to a provider. Delivered to
/// ``AnalyticsService/Configuration/errorHandler``.
public enum AnalyticsError: Error, Sendable, CustomStringConvertible {
    /// A provider threw while receiving a batch.
    case providerFailed(provider: String, batch: [AnalyticsEnvelope], error: any Error)
    /// An event's values broke its spec's constraints.
    case constraintViolated(ConstraintViolation, policy: ViolationPolicy)
    /// An event broke a provider's profile and was changed or not sent.
    case providerLimit(provider: String, ProfileViolation)
    /// Events were reported while the intake was full
    /// (``AnalyticsService/Configuration/intakeLimit``) and dropped; reported once per
    /// pipeline pass with their number.
    case intakeOverflow(events: Int)
    /// A provider's lane was full (``AnalyticsService/Configuration/providerLimit``):
    /// these events were dropped for that provider only.
    case providerOverflow(provider: String, events: Int)

    /// One line without parameter values.
    public var description: String {
        switch self {
        case .providerFailed(let provider, let batch, let error):
            "provider '\(provider)' failed on a batch of \(batch.count) event(s): \(error)"
        case .constraintViolated(let violation, let policy):
            "\(violation) (policy: \(policy))"
        case .providerLimit(let provider, let violation):
            "provider '\(provider)': \(violation)"
        case .intakeOverflow(let events):
            "\(events) event(s) dropped: the service's intake was full (intakeLimit); "
                + "the pipeline is behind, or use reportWaitingForRoom for bulk reporting"
        case .providerOverflow(let provider, let events):
            "\(events) event(s) dropped for provider '\(provider)': its lane was full (providerLimit); "
                + "the provider is slow or blocked"
        }
    }
}

/// Why the service did not deliver an event.
public enum DropReason: String, Sendable, Hashable, CaseIterable, Codable {
    /// Its consent category was not granted.
    case consent
    /// The user had opted out, or opted out before it was delivered.
    case optOut
    /// It broke its constraints under ``ViolationPolicy/drop``.
    case violation
    /// A stage returned `false` for it.
    case stage
    /// It was reported after ``AnalyticsService/shutdown()``.
    case shutdown
    /// It was reported while the intake was full (``AnalyticsService/Configuration/intakeLimit``).
    case overflow
}

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
    /// Events a provider's profile kept from it, by provider name.
    public var limited: [String: Int] = [:]
    /// Events dropped for one provider because its lane was full
    /// (``AnalyticsService/Configuration/providerLimit``), by provider name.
    public var overflowed: [String: Int] = [:]

    /// Creates empty counts.
    public init() {}

    /// The number of events dropped for one reason.
    public func dropped(_ reason: DropReason) -> Int { dropped[reason, default: 0] }
}
