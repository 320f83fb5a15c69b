extension AnalyticsEvent {
    /// What a tracking spec declared about an event beyond its parameters.
    public struct Metadata: Sendable, Hashable, Codable {
        /// The consent category the user must grant before the event leaves memory.
        public var consent: ConsentCategory
        /// The parameters whose values identify a person.
        public var piiKeys: Set<String>
        /// The constraints on parameter values, by parameter name.
        public var constraints: [String: ParameterConstraint]
        /// Whether the spec marked the event deprecated.
        public var isDeprecated: Bool
        /// The plan and the version of it the event was generated from, for a plan that
        /// declares its `version:`; `nil` otherwise. Every provider sends it (Segment's
        /// `context.plan`; see ``PlanReference``).
        public var plan: PlanReference?

        /// Creates metadata.
        /// - Parameters:
        ///   - consent: The consent category; `analytics` by default.
        ///   - piiKeys: The parameters that identify a person.
        ///   - constraints: The constraints on parameter values, by parameter name.
        ///   - isDeprecated: Whether the event is deprecated.
        ///   - plan: The plan version the event was generated from.
        public init(
            consent: ConsentCategory = .analytics,
            piiKeys: Set<String> = [],
            constraints: [String: ParameterConstraint] = [:],
            isDeprecated: Bool = false,
            plan: PlanReference? = nil
        ) {
            self.consent = consent
            self.piiKeys = piiKeys
            self.constraints = constraints
            self.isDeprecated = isDeprecated
            self.plan = plan
        }
    }

    /// The tracking plan, and the versions of it, an event was generated from: what a
    /// warehouse, a dashboard or `anna inspect` reads to know which definition a row
    /// follows. The generated factories of a plan with `version:` set it.
    ///
    /// On the wire, under one key: Segment's `context.plan`
    /// (`{"name","version","eventVersion","branch"}`), Mixpanel's and PostHog's
    /// property `anna_plan` (the same object), and Amplitude's own `plan` field
    /// (`{"source": name, "version", "branch"}`) with `anna_event_version` among the
    /// event properties. The branch is the app's (``AnalyticsContext/planBranch``).
    public struct PlanReference: Sendable, Hashable, Codable {
        /// The plan's name: the spec's `namespace:`, else its file name without `.anna.yml`.
        public var name: String
        /// The plan's `version:`, e.g. `2.3.0`.
        public var version: String
        /// The event's own `version:`, `1.0.0` when it declares none.
        public var eventVersion: String

        /// Creates a plan reference.
        /// - Parameters:
        ///   - name: The plan's name.
        ///   - version: The plan's version.
        ///   - eventVersion: The event's version.
        public init(name: String, version: String, eventVersion: String) {
            self.name = name
            self.version = version
            self.eventVersion = eventVersion
        }
    }
}
