import AnnaRules

/// Named values with their PII marks and constraints: the global properties set, or
/// the user's traits.
struct GlobalProperties: Sendable {
    private(set) var values: [String: AnalyticsValue] = [:]
    private(set) var pii: Set<String> = []
    private(set) var constraints: [String: ParameterConstraint] = [:]
    private var persistedNames: Set<String> = []

    var isEmpty: Bool { values.isEmpty }

    func isPersisted(_ name: String) -> Bool { persistedNames.contains(name) }

    mutating func set(_ name: String, _ value: AnalyticsValue, metadata: PropertyMetadata, persisted: Bool) {
        forgetLastMerge()
        values[name] = value
        if metadata.isPII { pii.insert(name) } else { pii.remove(name) }
        removeConstraints(of: name)
        constraints.merge(metadata.constraints(named: name)) { _, new in new }
        if persisted { persistedNames.insert(name) } else { persistedNames.remove(name) }
    }

    mutating func remove(_ name: String) {
        forgetLastMerge()
        values[name] = nil
        pii.remove(name)
        removeConstraints(of: name)
        persistedNames.remove(name)
    }

    /// Forgets the constraints of a value and those inside it (`name/…`).
    private mutating func removeConstraints(of name: String) {
        guard !constraints.isEmpty else { return }
        let prefix = name + AnalyticsKeyPath.separator
        constraints = constraints.filter { key, _ in key != name && !key.hasPrefix(prefix) }
    }

    private mutating func forgetLastMerge() {
        lastInput = [:]
        lastMerged = [:]
    }

    /// The persisted values and which are PII.
    var persisted: (values: [String: AnalyticsValue], pii: Set<String>) {
        (values.filter { persistedNames.contains($0.key) }, pii.intersection(persistedNames))
    }

    /// Adds the values an event does not set itself, with their PII marks.
    ///
    /// An event without parameters shares the values' storage; an event whose
    /// parameters are the very storage of the previous one (an event value reported
    /// again and again) gets the previous result, without building it anew.
    mutating func add(to event: inout AnalyticsEvent) {
        if !pii.isEmpty {
            for name in pii where event.parameters[name] == nil { event.metadata.piiKeys.insert(name) }
        }
        if event.parameters.isEmpty {
            event.parameters = values
        } else if lastInput.sharesStorage(with: event.parameters) {
            event.parameters = lastMerged
        } else {
            lastInput = event.parameters
            event.parameters.merge(values) { own, _ in own }
            lastMerged = event.parameters
        }
    }

    /// The parameters `add` last merged into, and the result; kept (so the storage
    /// cannot be reused by another dictionary) until the values change.
    private var lastInput: [String: AnalyticsValue] = [:]
    private var lastMerged: [String: AnalyticsValue] = [:]

    /// An event carrying the values as parameters (for identify and group).
    func event() -> AnalyticsEvent {
        AnalyticsEvent(name: "", parameters: values, metadata: .init(piiKeys: pii))
    }
}
