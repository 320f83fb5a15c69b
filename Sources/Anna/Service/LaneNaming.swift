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
        /// The last parameters this event came with that the profile took as they
        /// were, and the same mapped: an event reported again with the same
        /// dictionary (a stored event, reported often) reuses them instead of
        /// building another.
        var lastParameters: [String: AnalyticsValue] = [:]
        var lastMapped: [String: AnalyticsValue] = [:]
    }

    /// Distinct event names, and distinct parameter names, kept; names beyond it are
    /// decided every time.
    static let cacheLimit = 10_000
    /// The most parameter names kept beside one event name.
    private static let parametersPerEvent = 32

    /// Whether events need anything from this type: a mapper or a profile.
    let isActive: Bool
    private let mapper: (any EventMapper)?
    private let profile: ProviderProfile?
    // The profile's value limits, read once instead of through the profile per event.
    private let hasProfile: Bool
    private let maximumParameters: Int?
    private let maximumStringLength: Int?
    private let acceptsArrayValues: Bool
    private let limitsEventBytes: Bool

    /// Index in `entries` by declared event name.
    private var slots: [String: Int] = [:]
    /// The last event name looked up and its slot: events often come in runs of one
    /// name, and comparing names costs less than hashing one.
    private var lastSlot: (declared: String, slot: Int)?
    private var entries: [EventNames] = []
    /// Parameter names by declared name, for names not yet seen with an event name.
    private var parameters: [String: Decision] = [:]

    init(mapper: (any EventMapper)?, profile: ProviderProfile?) {
        self.mapper = mapper
        self.profile = profile
        isActive = mapper != nil || profile != nil
        hasProfile = profile != nil
        maximumParameters = profile?.maximumParameters
        maximumStringLength = profile?.maximumStringLength
        acceptsArrayValues = profile?.acceptsArrayValues ?? true
        limitsEventBytes = profile?.maximumEventBytes != nil
    }

    /// Maps the event's names and makes it fit the profile.
    /// - Returns: `false` when the profile drops the event.
    mutating func prepare(_ event: inout AnalyticsEvent, violations: inout [ProfileViolation]) -> Bool {
        let slot = self.slot(for: event.name)
        var accepted: Bool
        if let slot {
            event.name = entries[slot].name.mapped
            accepted = entries[slot].name.isAccepted
        } else {
            let name = decision(forEvent: event.name)
            event.name = name.mapped
            accepted = name.isAccepted
        }
        if !event.parameters.isEmpty {
            if mapper != nil {
                if let slot, accepted, entries[slot].lastParameters.sharesStorage(with: event.parameters) {
                    event.parameters = entries[slot].lastMapped
                    return true
                }
                var mapped = [String: AnalyticsValue](minimumCapacity: event.parameters.count)
                for (key, value) in event.parameters {
                    let parameter = decision(forParameter: key, slot: slot)
                    accepted = accepted && parameter.isAccepted
                    // The mapper names the keys inside objects too: `products/productID` → `product_id`.
                    mapped[parameter.mapped] = value.containsObject ? mappingKeys(of: value) : value
                }
                // `metadata` keeps the spec's names: it describes the spec, and PII was handled before.
                if let slot, accepted, fits(mapped) {
                    entries[slot].lastParameters = event.parameters
                    entries[slot].lastMapped = mapped
                    event.parameters = mapped
                    return true
                }
                event.parameters = mapped
            } else {
                for key in event.parameters.keys where !decision(forParameter: key, slot: slot).isAccepted {
                    accepted = false
                    break
                }
            }
        }
        if !hasProfile || accepted && fits(event.parameters) { return true }
        return profile?.enforce(&event, violations: &violations) ?? true
    }

    /// Whether the parameter values of an event with accepted names are within the
    /// profile's limits (if any), so that ``ProviderProfile/enforce(_:violations:)``
    /// would change nothing.
    private func fits(_ parameters: [String: AnalyticsValue]) -> Bool {
        guard hasProfile else { return true }
        if limitsEventBytes { return false }
        if let maximumParameters, parameters.count > maximumParameters { return false }
        for value in parameters.values {
            // Objects go through the profile's object rules and nested name checks.
            if value.containsObject { return false }
            if !acceptsArrayValues, case .array = value { return false }
            if let maximumStringLength, value.mayExceed(maximumStringLength) { return false }
        }
        return true
    }

    /// The value with the keys of its objects, at every depth, as the mapper names
    /// parameters; decided once per key and cached with the parameter names.
    private mutating func mappingKeys(of value: AnalyticsValue) -> AnalyticsValue {
        switch value {
        case .object(let fields):
            var mapped = [String: AnalyticsValue](minimumCapacity: fields.count)
            for (key, field) in fields {
                mapped[decision(forParameter: key, slot: nil).mapped] = field.containsObject ? mappingKeys(of: field) : field
            }
            return .object(mapped)
        case .array(let elements):
            return .array(elements.map { $0.containsObject ? mappingKeys(of: $0) : $0 })
        default:
            return value
        }
    }

    /// The event name's entry, decided now if it is new; `nil` when the cache is full.
    private mutating func slot(for declared: String) -> Int? {
        if let lastSlot, lastSlot.declared == declared { return lastSlot.slot }
        let slot: Int
        if let found = slots[declared] {
            slot = found
        } else {
            guard entries.count < Self.cacheLimit else { return nil }
            entries.append(EventNames(name: decision(forEvent: declared)))
            slot = entries.count - 1
            slots[declared] = slot
        }
        lastSlot = (declared, slot)
        return slot
    }

    private func decision(forEvent declared: String) -> Decision {
        let mapped = mapper?.name(for: declared) ?? declared
        let problem = profile.flatMap { $0.nameProblem(mapped, maximumLength: $0.maximumEventNameLength, isEvent: true) }
        return Decision(mapped: mapped, isAccepted: problem == nil)
    }

    private mutating func decision(forParameter declared: String, slot: Int?) -> Decision {
        if let slot, let index = entries[slot].parameters.firstIndex(where: { $0.declared == declared }) {
            return entries[slot].parameters[index].decision
        }
        let decision: Decision
        if let hit = parameters[declared] {
            decision = hit
        } else {
            let mapped = mapper?.parameterName(for: declared) ?? declared
            let problem = profile.flatMap { $0.nameProblem(mapped, maximumLength: $0.maximumParameterNameLength, isEvent: false) }
            decision = Decision(mapped: mapped, isAccepted: problem == nil)
            if parameters.count < Self.cacheLimit { parameters[declared] = decision }
        }
        if let slot, entries[slot].parameters.count < Self.parametersPerEvent {
            entries[slot].parameters.append((declared, decision))
        }
        return decision
    }
}
