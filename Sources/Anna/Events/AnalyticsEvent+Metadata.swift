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

        /// Creates metadata.
        /// - Parameters:
        ///   - consent: The consent category; `analytics` by default.
        ///   - piiKeys: The parameters that identify a person.
        ///   - constraints: The constraints on parameter values, by parameter name.
        ///   - isDeprecated: Whether the event is deprecated.
        public init(
            consent: ConsentCategory = .analytics,
            piiKeys: Set<String> = [],
            constraints: [String: ParameterConstraint] = [:],
            isDeprecated: Bool = false
        ) {
            self.consent = consent
            self.piiKeys = piiKeys
            self.constraints = constraints
            self.isDeprecated = isDeprecated
        }
    }
}
