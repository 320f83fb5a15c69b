import Dispatch
import Foundation

/// Writes identity patches to the store in order, on a queue of its own, so neither
/// `report` nor the pipeline waits for the disk. Inactive until ``start(with:writing:)``
/// gives it the state read at launch, so that changes made before that apply on top.
final class IdentityPersister: Sendable {
    /// Whether the persister writes to the store.
    enum Writing: Sendable {
        /// Each patch, as it comes.
        case always
        /// The store could not be read: nothing until the app chooses again (a patch
        /// with ``IdentityPatch/isAppChoice``), which saves the whole state held.
        case afterTheAppChooses
        /// The store holds a later layout, which this launch never replaces.
        case never
    }

    private let store: any IdentityStore
    private let queue: DispatchQueue
    private let errorHandler: (@Sendable (AnalyticsError) -> Void)?
    /// What this process believes the state is, and whether it writes it; owned by
    /// `queue`. The state is the base for a patch when the store has nothing readable.
    private let current: QueueBound<(identity: StoredIdentity, writing: Writing)>

    init(store: any IdentityStore, errorHandler: (@Sendable (AnalyticsError) -> Void)?) {
        self.store = store
        self.errorHandler = errorHandler
        queue = DispatchQueue(label: "anna.identity", qos: .utility, attributes: .initiallyInactive)
        current = QueueBound((StoredIdentity(), .always), on: queue)
    }

    /// Reads the stored state, on the caller's thread (the pipeline's, at launch).
    func load() throws -> StoredIdentity? {
        try store.load()
    }

    /// When the store holds no state, writes `fresh`, unless another process sharing
    /// the store wrote one first: returns the state the store holds then. In one step
    /// (under ``FileIdentityStore``'s lock), so two processes starting together agree
    /// on one anonymous id.
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
    /// - Parameters:
    ///   - identity: The state the launch starts from.
    ///   - writing: Whether patches reach the store.
    func start(with identity: StoredIdentity, writing: Writing = .always) {
        // Before activation: the patches queued meanwhile apply on top.
        current.handOver((identity, writing))
        queue.activate()
    }

    /// Queues a patch.
    func write(_ patch: IdentityPatch) {
        queue.async { [self] in
            patch.apply(to: &current.value.identity)
            let base = current.value.identity
            do {
                switch current.value.writing {
                case .always:
                    try store.update { stored in
                        var identity = stored ?? base
                        patch.apply(to: &identity)
                        stored = identity
                    }
                case .afterTheAppChooses:
                    guard patch.isAppChoice else { return }
                    current.value.writing = .always
                    try store.save(base)
                case .never:
                    return
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
