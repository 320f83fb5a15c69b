import Foundation

/// The identity as the service holds it now: ``AnalyticsService/identity``.
public struct AnalyticsIdentity: Sendable, Hashable {
    /// The installation's anonymous identifier.
    public var anonymousID: String
    /// The user's identifier, if identified.
    public var userID: String?
    /// The user's traits, merged over the `identify` calls since the user id was set.
    public var traits: [String: AnalyticsValue]
    /// The current session (its start in milliseconds since 1970), 0 before the first event.
    public var sessionID: Int64
    /// The global properties set now.
    public var globals: [String: AnalyticsValue]
    /// The consent categories granted.
    public var grantedConsent: Set<ConsentCategory>
}

/// A change of the granted consent categories, applied in the order the app made it.
enum ConsentChange: Sendable {
    case grant(Set<ConsentCategory>)
    case revoke(Set<ConsentCategory>)
    case set(Set<ConsentCategory>)

    func apply(to granted: inout Set<ConsentCategory>) {
        switch self {
        case .grant(let categories): granted.formUnion(categories)
        case .revoke(let categories): granted.subtract(categories)
        case .set(let categories): granted = categories
        }
    }
}

extension Pipeline {
    /// A call of the service other than `report`. Indirect: one reference in the
    /// intake's items, which then stay the size an event needs.
    indirect enum Call: Sendable {
        /// `userID` is `.none` to keep the current one.
        case identify(userID: String??, traits: [UserTrait])
        case screen(AnalyticsScreen)
        case group(groupID: String, traits: [GroupTrait])
        case alias(newUserID: String)
        case reset
        case setGlobal(AnalyticsGlobal)
        case removeGlobal(String)

        /// Whether the call sends a message (and so counts as reported).
        var sendsMessage: Bool {
            switch self {
            case .identify(let userID, let traits):
                // `identify(userID: nil)` with no traits only forgets the user.
                if case .some(.none) = userID { return !traits.isEmpty }
                return true
            case .screen, .group, .alias: return true
            case .reset, .setGlobal, .removeGlobal: return false
            }
        }
    }

    /// What the pipeline reads at launch.
    struct Launch {
        var identity: StoredIdentity
        /// The consent in force at launch: the stored choice, or the configuration's default.
        var grantedConsent: Set<ConsentCategory>
        /// The lifecycle events of the launch, when the service tracks them.
        var events: [AnalyticsEvent]
    }

    /// Reads the stored identity and takes it as the pipeline's state, as
    /// ``IdentityLaunch`` decides; a missing or unreadable one is replaced by a new
    /// one, written at once. Runs on `queue` before any item.
    func start(now: Date) -> Launch {
        var loaded: StoredIdentity?
        do {
            loaded = try persister.load()
        } catch {
            configuration.errorHandler?(.identityStore(error))
            configuration.logger.error("analytics identity store: \(error)")
        }
        // Missing or unreadable: a new state, unless a process sharing the store wrote one meanwhile.
        let stored = loaded ?? persister.createIfAbsent(StoredIdentity())
        persister.start(with: stored)
        let launch = IdentityLaunch(
            stored: stored,
            settings: .init(
                fixedAnonymousID: configuration.anonymousID, defaultConsent: configuration.grantedConsent,
                app: configuration.context.app, tracksLifecycleEvents: configuration.tracksLifecycleEvents,
                sessionTimeout: sessionTimeout),
            now: now)
        let identity = launch.identity
        anonymousID = identity.anonymousID
        userID = identity.userID
        for (name, value) in identity.traits {
            traits.set(name, value, metadata: PropertyMetadata(isPII: identity.piiTraits.contains(name)), persisted: true)
        }
        for (name, value) in identity.globals {
            globals.set(name, value, metadata: PropertyMetadata(isPII: identity.piiGlobals.contains(name)), persisted: true)
        }
        granted = launch.grantedConsent
        if let session = launch.continuedSession {
            sessionID = session.id
            lastEventTime = session.lastActivity
            sessionWritten = session.lastActivity
        }
        if let patch = launch.appPatch { persister.write(patch) }
        return Launch(identity: identity, grantedConsent: launch.grantedConsent, events: launch.events)
    }

    /// Applies a call to the state; returns the message it sends, if any.
    func perform(_ call: Call, at time: Date, sends: Bool) -> (event: AnalyticsEvent, envelope: EnvelopeKind)? {
        switch call {
        case .identify(let newUserID, let newTraits):
            if case .some(let id) = newUserID, id != userID {
                if userID != nil { traits = GlobalProperties() }  // another user: the old one's traits go
                userID = id
                persister.write(IdentityPatch(userID: .some(id), traits: traits.persisted))
            }
            for trait in newTraits {
                traits.set(trait.name, trait.value, metadata: trait.metadata, persisted: true)
            }
            if !newTraits.isEmpty { persister.write(IdentityPatch(traits: traits.persisted)) }
            guard sends else { return nil }
            var event = traits.event()
            event.metadata.constraints = Dictionary(
                newTraits.compactMap { trait in trait.metadata.constraint.map { (trait.name, $0) } },
                uniquingKeysWith: { $1 })
            return (event, EnvelopeKind(kind: .identify))
        case .screen(let screen):
            guard sends else { return nil }
            return (AnalyticsEvent(name: screen.name, parameters: screen.properties, metadata: screen.metadata),
                    EnvelopeKind(kind: .screen))
        case .group(let groupID, let groupTraits):
            guard sends else { return nil }
            var properties = GlobalProperties()
            for trait in groupTraits { properties.set(trait.name, trait.value, metadata: trait.metadata, persisted: false) }
            var event = properties.event()
            event.metadata.constraints = properties.constraints
            return (event, EnvelopeKind(kind: .group, groupID: groupID))
        case .alias(let newUserID):
            let previous = userID ?? anonymousID
            userID = newUserID
            persister.write(IdentityPatch(userID: .some(newUserID)))
            guard sends else { return nil }
            return (AnalyticsEvent(name: ""), EnvelopeKind(kind: .alias, userID: newUserID, previousID: previous))
        case .reset:
            anonymousID = UUID().uuidString.lowercased()
            userID = nil
            traits = GlobalProperties()
            sessionID = 0
            lastEventTime = .distantPast
            persister.write(IdentityPatch(
                anonymousID: anonymousID, userID: .some(nil), traits: ([:], []), session: (0, nil)))
            return nil
        case .setGlobal(let global):
            if let constraint = global.metadata.constraint {
                var checker = ConstraintChecker()
                let probe = AnalyticsEvent(
                    name: "global property", parameters: [global.name: global.value],
                    metadata: .init(constraints: [global.name: constraint]))
                let found = checker.violations(of: probe)
                if !found.isEmpty && !apply(configuration.violationPolicy, to: found) { return nil }
            }
            let wasPersisted = globals.isPersisted(global.name)
            globals.set(global.name, global.value, metadata: global.metadata, persisted: global.isPersisted)
            if global.isPersisted || wasPersisted { persister.write(IdentityPatch(globals: globals.persisted)) }
            return nil
        case .removeGlobal(let name):
            let wasPersisted = globals.isPersisted(name)
            globals.remove(name)
            if wasPersisted { persister.write(IdentityPatch(globals: globals.persisted)) }
            return nil
        }
    }

    /// The identity now.
    var currentIdentity: AnalyticsIdentity {
        AnalyticsIdentity(
            anonymousID: anonymousID, userID: userID, traits: traits.values, sessionID: sessionID,
            globals: globals.values, grantedConsent: granted)
    }

    /// Writes the session's last activity, when there is a session.
    func writeSession(force: Bool) {
        guard sessionID != 0, force || lastEventTime.timeIntervalSince(sessionWritten) >= Self.sessionWriteInterval
        else { return }
        sessionWritten = lastEventTime
        persister.write(IdentityPatch(session: (sessionID, lastEventTime)))
    }
}

/// The kind of envelope `admit` builds, with the fields of that kind.
struct EnvelopeKind: Sendable {
    var kind: AnalyticsEnvelope.Kind
    var userID: String?
    var fields: CallFields?

    init(kind: AnalyticsEnvelope.Kind, userID: String? = nil, groupID: String? = nil, previousID: String? = nil) {
        self.kind = kind
        self.userID = userID
        self.fields = CallFields.make(groupID: groupID, previousID: previousID)
    }

    static let track = EnvelopeKind(kind: .track)

    /// Whether global properties are added: to events and screens.
    var carriesProperties: Bool { kind == .track || kind == .screen }
}

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
        constraints[name] = metadata.constraint
        if persisted { persistedNames.insert(name) } else { persistedNames.remove(name) }
    }

    mutating func remove(_ name: String) {
        forgetLastMerge()
        values[name] = nil
        pii.remove(name)
        constraints[name] = nil
        persistedNames.remove(name)
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
