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
