import Dispatch
import Foundation

/// Writes identity patches to the store in order, on a queue of its own, so neither
/// `report` nor the pipeline waits for the disk. Inactive until ``start(with:)``
/// gives it the state read at launch, so that changes made before that apply on top.
final class IdentityPersister: Sendable {
    private let store: any IdentityStore
    private let queue: DispatchQueue
    private let errorHandler: (@Sendable (AnalyticsError) -> Void)?
    /// What this process believes the state is; owned by `queue`. The base for a
    /// patch when the store has nothing readable.
    private let current: QueueBound<StoredIdentity>

    init(store: any IdentityStore, errorHandler: (@Sendable (AnalyticsError) -> Void)?) {
        self.store = store
        self.errorHandler = errorHandler
        queue = DispatchQueue(label: "anna.identity", qos: .utility, attributes: .initiallyInactive)
        current = QueueBound(StoredIdentity(), on: queue)
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
        // Before activation: the patches queued meanwhile apply on top.
        current.handOver(identity)
        queue.activate()
    }

    /// Queues a patch.
    func write(_ patch: IdentityPatch) {
        queue.async { [self] in
            patch.apply(to: &current.value)
            let base = current.value
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

    /// Runs `body` on the persister's queue once every patch queued before the call is written.
    func afterWrites(_ body: @escaping @Sendable () -> Void) {
        queue.async(execute: body)
    }
}
