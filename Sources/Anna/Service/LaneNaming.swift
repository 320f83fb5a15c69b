/// One provider lane's names: its mapper's names for events and parameters, and
/// whether its profile accepts them, decided once per declared name and cached.
///
/// Owned by the lane's task and used one batch at a time, so it needs no lock.
/// An event whose names are all accepted and whose values are within the profile's
/// limits passes without ``ProviderProfile/enforce(_:violations:)``; any other goes
/// through it, so violations are found and reported exactly as there.
struct LaneNaming {
    /// A declared name as the provider receives it.
    private struct Decision {
        var mapped: String
        /// Whether the profile, if any, accepts the mapped name.
        var isAccepted: Bool
    }

    /// An event name's decision, and the decisions for the parameter names seen with
    /// it: an event has few parameters, so finding one among them by comparing names
    /// costs less than hashing the name.
    private struct EventNames {
        var name: Decision
        var parameters: [(declared: String, decision: Decision)] = []
    }

    /// Distinct names kept per cache; names beyond it are decided every time.
    static let cacheLimit = 10_000
    /// The most parameter names kept beside one event name.
    private static let parametersPerEvent = 32

    private let mapper: (any EventMapper)?
    private let profile: ProviderProfile?
    // The profile's value limits, read once instead of through the profile per event.
    private let maximumParameters: Int?
    private let maximumStringLength: Int?
    private let acceptsArrayValues: Bool
    private let limitsEventBytes: Bool
    private let hasProfile: Bool

    private var events: [String: EventNames] = [:]
    private var parameters: [String: Decision] = [:]

    init(mapper: (any EventMapper)?, profile: ProviderProfile?) {
        self.mapper = mapper
        self.profile = profile
        maximumParameters = profile?.maximumParameters
        maximumStringLength = profile?.maximumStringLength
        acceptsArrayValues = profile?.acceptsArrayValues ?? true
        limitsEventBytes = profile?.maximumEventBytes != nil
        hasProfile = profile != nil
        isActive = mapper != nil || profile != nil
    }

    /// Whether events need anything from this type: a mapper or a profile.
    let isActive: Bool

    /// Maps the event's names and makes it fit the profile.
    /// - Returns: `false` when the profile drops the event.
    mutating func prepare(_ event: inout AnalyticsEvent, violations: inout [ProfileViolation]) -> Bool {
        let declared = event.name
        let cached = events[declared]
        var known = cached ?? EventNames(name: decision(forEvent: declared))
        let learned = known.parameters.count
        event.name = known.name.mapped
        var accepted = known.name.isAccepted
        if !event.parameters.isEmpty {
            if mapper != nil {
                var mapped: [String: AnalyticsValue] = [:]
                mapped.reserveCapacity(event.parameters.count)
                for (key, value) in event.parameters {
                    let parameter = decision(forParameter: key, of: &known)
                    accepted = accepted && parameter.isAccepted
                    mapped[parameter.mapped] = value
                }
                event.parameters = mapped
                // `metadata` keeps the spec's names: it describes the spec, and PII was handled before.
            } else {
                for key in event.parameters.keys where !decision(forParameter: key, of: &known).isAccepted {
                    accepted = false
                    break
                }
            }
        }
        if cached == nil ? events.count < Self.cacheLimit : known.parameters.count != learned {
            events[declared] = known
        }
        if !hasProfile || accepted && fits(event) { return true }
        return profile?.enforce(&event, violations: &violations) ?? true
    }

    /// Whether the values of an event with accepted names are within the profile's
    /// limits, so that ``ProviderProfile/enforce(_:violations:)`` would change nothing.
    private func fits(_ event: AnalyticsEvent) -> Bool {
        if limitsEventBytes { return false }
        if let maximumParameters, event.parameters.count > maximumParameters { return false }
        for value in event.parameters.values {
            if !acceptsArrayValues, case .array = value { return false }
            if let maximumStringLength, value.mayExceed(maximumStringLength) { return false }
        }
        return true
    }

    private func decision(forEvent declared: String) -> Decision {
        let mapped = mapper?.name(for: declared) ?? declared
        let problem = profile.flatMap { $0.nameProblem(mapped, maximumLength: $0.maximumEventNameLength, isEvent: true) }
        return Decision(mapped: mapped, isAccepted: problem == nil)
    }

    private mutating func decision(forParameter declared: String, of event: inout EventNames) -> Decision {
        for known in event.parameters where known.declared == declared { return known.decision }
        let decision: Decision
        if let hit = parameters[declared] {
            decision = hit
        } else {
            let mapped = mapper?.parameterName(for: declared) ?? declared
            let problem = profile.flatMap { $0.nameProblem(mapped, maximumLength: $0.maximumParameterNameLength, isEvent: false) }
            decision = Decision(mapped: mapped, isAccepted: problem == nil)
            if parameters.count < Self.cacheLimit { parameters[declared] = decision }
        }
        if event.parameters.count < Self.parametersPerEvent { event.parameters.append((declared, decision)) }
        return decision
    }
}
