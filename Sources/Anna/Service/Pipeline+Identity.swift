import Foundation

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
    /// ``IdentityLaunch`` decides; a missing one is replaced by a new one, written at
    /// once. One that cannot be read fails closed: the launch starts opted out, in
    /// memory, and the store is left as it is until the app chooses again. Runs on
    /// `queue` before any item.
    func start(now: Date) -> Launch {
        let stored: StoredIdentity
        do {
            // Missing: a new state, unless a process sharing the store wrote one meanwhile.
            stored = try persister.load() ?? persister.createIfAbsent(StoredIdentity())
            persister.start(with: stored)
        } catch {
            // Nothing is collected under a choice the app did not make: as an opt-out,
            // until the app opts in (or out) again.
            let unreadable = UnreadableIdentityError(error)
            configuration.errorHandler?(.identityStore(unreadable))
            configuration.logger.error("analytics identity store: \(unreadable)")
            stored = StoredIdentity(isOptedOut: true)
            persister.start(with: stored, writing: unreadable.isNewerFormat ? .never : .afterTheAppChooses)
        }
        let launch = IdentityLaunch(
            stored: stored,
            settings: .init(
                fixedAnonymousID: configuration.anonymousID, defaultConsent: configuration.grantedConsent,
                app: configuration.context.app, tracksLifecycleEvents: configuration.tracksLifecycleEvents,
                sessionTimeout: sessionTimeout),
            now: now)
        let identity = launch.identity
        state.withValue { state in apply(identity, of: launch, to: &state) }
        if let patch = launch.appPatch { persister.write(patch) }
        return Launch(identity: identity, grantedConsent: launch.grantedConsent, events: launch.events)
    }

    private func apply(_ identity: StoredIdentity, of launch: IdentityLaunch, to state: inout State) {
        state.anonymousID = identity.anonymousID
        state.userID = identity.userID
        for (name, value) in identity.traits {
            state.traits.set(name, value, metadata: PropertyMetadata(isPII: identity.piiTraits.contains(name)), persisted: true)
        }
        for (name, value) in identity.globals {
            state.globals.set(name, value, metadata: PropertyMetadata(isPII: identity.piiGlobals.contains(name)), persisted: true)
        }
        state.granted = launch.grantedConsent
        if let session = launch.continuedSession {
            state.sessionID = session.id
            state.lastEventTime = session.lastActivity
            state.sessionWritten = session.lastActivity
        }
    }

    /// Applies a call to the state; returns the message it sends, if any.
    func perform(_ call: Call, at time: Date, sends: Bool, state: inout State) -> (event: AnalyticsEvent, envelope: EnvelopeKind)? {
        switch call {
        case .identify(let newUserID, let newTraits):
            if case .some(let id) = newUserID, id != state.userID {
                if state.userID != nil { state.traits = GlobalProperties() }  // another user: the old one's traits go
                state.userID = id
                persister.write(IdentityPatch(userID: .some(id), traits: state.traits.persisted))
            }
            for trait in newTraits {
                state.traits.set(trait.name, trait.value, metadata: trait.metadata, persisted: true)
            }
            if !newTraits.isEmpty { persister.write(IdentityPatch(traits: state.traits.persisted)) }
            guard sends else { return nil }
            var event = state.traits.event()
            for trait in newTraits {
                event.metadata.constraints.merge(trait.metadata.constraints(named: trait.name)) { _, new in new }
            }
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
            let previous = state.userID ?? state.anonymousID
            state.userID = newUserID
            persister.write(IdentityPatch(userID: .some(newUserID)))
            guard sends else { return nil }
            return (AnalyticsEvent(name: ""), EnvelopeKind(kind: .alias, userID: newUserID, previousID: previous))
        case .reset:
            state.anonymousID = UUID().uuidString.lowercased()
            state.userID = nil
            state.traits = GlobalProperties()
            state.sessionID = 0
            state.lastEventTime = .distantPast
            persister.write(IdentityPatch(
                anonymousID: state.anonymousID, userID: .some(nil), traits: ([:], []), session: (0, nil)))
            return nil
        case .setGlobal(let global):
            let constraints = global.metadata.constraints(named: global.name)
            if !constraints.isEmpty {
                var checker = ConstraintChecker()
                let probe = AnalyticsEvent(
                    name: "global property", parameters: [global.name: global.value],
                    metadata: .init(constraints: constraints))
                let found = checker.violations(of: probe)
                if !found.isEmpty && !apply(configuration.violationPolicy, to: found) { return nil }
            }
            let wasPersisted = state.globals.isPersisted(global.name)
            state.globals.set(global.name, global.value, metadata: global.metadata, persisted: global.isPersisted)
            if global.isPersisted || wasPersisted { persister.write(IdentityPatch(globals: state.globals.persisted)) }
            return nil
        case .removeGlobal(let name):
            let wasPersisted = state.globals.isPersisted(name)
            state.globals.remove(name)
            if wasPersisted { persister.write(IdentityPatch(globals: state.globals.persisted)) }
            return nil
        }
    }

}

/// The stored identity could not be read at launch: why, and what the service does
/// about it, for the app's error handler.
struct UnreadableIdentityError: Error, CustomStringConvertible {
    /// What the store threw.
    var underlying: any Error
    /// The state is of a later layout, which this launch leaves to the later version.
    var isNewerFormat: Bool

    init(_ error: any Error) {
        underlying = error
        isNewerFormat = (error as? IdentityStoreError)?.newerFormat != nil || error is StoredIdentity.NewerFormatError
    }

    var description: String {
        let written = isNewerFormat
            ? "this launch keeps the app's choices in memory and leaves the stored state to the later version"
            : "that choice writes a new state, and the unreadable file is moved aside"
        return "\(underlying). Nothing is collected, as after optOut(), until the app asks the user again "
            + "and calls optIn() (after setConsent(_:) for the categories granted) or optOut(); \(written)"
    }
}

extension Pipeline.State {
    /// The identity now.
    var identity: AnalyticsIdentity {
        AnalyticsIdentity(
            anonymousID: anonymousID, userID: userID, traits: traits.values, sessionID: sessionID,
            globals: globals.values, grantedConsent: granted)
    }

}

extension Pipeline {
    /// Writes the session's last activity, when there is a session.
    func writeSession(force: Bool, state: inout State) {
        guard state.sessionID != 0, force || state.lastEventTime.timeIntervalSince(state.sessionWritten) >= sessionWriteInterval
        else { return }
        state.sessionWritten = state.lastEventTime
        persister.write(IdentityPatch(session: (state.sessionID, state.lastEventTime)))
    }
}
