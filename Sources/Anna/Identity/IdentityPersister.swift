import Dispatch
import Foundation

/// A change to some fields of a ``StoredIdentity``; fields left `nil` keep what the
/// store holds, which another process sharing the store may have changed.
struct IdentityPatch: Sendable {
    var anonymousID: String?
    var userID: String??
    var traits: (values: [String: AnalyticsValue], pii: Set<String>)?
    var grantedConsent: Set<ConsentCategory>?
    var isOptedOut: Bool?
    var session: (id: Int64, lastActivity: Date?)?
    var app: (version: String?, build: String?)?
    var globals: (values: [String: AnalyticsValue], pii: Set<String>)?

    func apply(to identity: inout StoredIdentity) {
        if let anonymousID { identity.anonymousID = anonymousID }
        if let userID { identity.userID = userID }
        if let traits {
            identity.traits = traits.values
            identity.piiTraits = traits.pii
        }
        if let grantedConsent { identity.grantedConsent = grantedConsent }
        if let isOptedOut { identity.isOptedOut = isOptedOut }
        if let session {
            identity.sessionID = session.id
            identity.lastActivity = session.lastActivity
        }
        if let app {
            identity.appVersion = app.version
            identity.appBuild = app.build
        }
        if let globals {
            identity.globals = globals.values
            identity.piiGlobals = globals.pii
        }
    }
}

/// Writes identity patches to the store in order, on a queue of its own, so neither
/// `report` nor the pipeline waits for the disk. Inactive until ``start(with:)``
/// gives it the state read at launch, so that changes made before that apply on top.
final class IdentityPersister: @unchecked Sendable {
    private let store: any IdentityStore
    private let queue = DispatchQueue(label: "anna.identity", qos: .utility, attributes: .initiallyInactive)
    private let errorHandler: (@Sendable (AnalyticsError) -> Void)?
    /// What this process believes the state is; owned by `queue`. The base for a
    /// patch when the store has nothing readable.
    private var current = StoredIdentity()

    init(store: any IdentityStore, errorHandler: (@Sendable (AnalyticsError) -> Void)?) {
        self.store = store
        self.errorHandler = errorHandler
    }

    /// Reads the stored state, on the caller's thread (the pipeline's, at launch).
    func load() throws -> StoredIdentity? {
        try store.load()
    }

    /// When the store holds no readable state, writes `fresh`, unless another process
    /// sharing the store wrote one first: returns the state the store holds then. In one
    /// step (under ``FileIdentityStore``'s lock), so two processes starting together
    /// agree on one anonymous id.
    func createIfAbsent(_ fresh: StoredIdentity) -> StoredIdentity {
        var result = fresh
        do {
            try store.update { stored in
                if stored == nil { stored = fresh }
                result = stored ?? fresh
            }
        } catch {
            errorHandler?(.identityStore(error))
        }
        return result
    }

    /// Starts writing, from the state read at launch.
    func start(with identity: StoredIdentity) {
        current = identity
        queue.activate()
    }

    /// Queues a patch.
    func write(_ patch: IdentityPatch) {
        queue.async { [self] in
            patch.apply(to: &current)
            let base = current
            do {
                try store.update { stored in
                    var identity = stored ?? base
                    patch.apply(to: &identity)
                    stored = identity
                }
            } catch {
                errorHandler?(.identityStore(error))
            }
        }
    }

    /// Returns once every patch queued before the call is written.
    func waitUntilWritten() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { continuation.resume() }
        }
    }
}
