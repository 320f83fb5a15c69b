import Foundation

extension DurableQueue.Writer {
    /// What an attempt at a disk operation did (``attempt(_:)``).
    enum Attempt<Result> {
        /// It ran; its result.
        case done(Result)
        /// Another queue holds the lock, and ``QueueLockStateMachine`` waits the
        /// conflict out: nothing ran; try the whole operation again at this instant.
        case retry(at: ContinuousClock.Instant)
    }

    /// Runs one disk operation of the queue's, then gives the lock up if the policy
    /// says so; or, while another queue holds the lock for a moment, runs nothing and
    /// says when to try again. The writer's driver (``DurableQueue``) waits on its
    /// queue's timer, with no later operation let in before this one.
    /// - Parameter now: The monotonic time the lock machine's waits are measured on.
    mutating func attempt<Result>(
        now: ContinuousClock.Instant = .now, _ body: (inout DurableQueue.Writer) -> Result
    ) -> Attempt<Result> {
        if let retryAt = takeLockForOperation(now: now) { return .retry(at: retryAt) }
        defer { finishOperation() }
        return .done(body(&self))
    }

    /// Before a disk operation: takes the lock back when the policy gave it up, as
    /// `lock` decides, moving to another queue of a shared folder after a long
    /// conflict. `nil`: go on (the operation's ``ensureReady()`` learns from
    /// ``holdLock()`` whether the disk can be used); an instant: another queue holds
    /// the lock and the conflict is waited out: try the whole operation again then.
    mutating func takeLockForOperation(now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        lockUnavailableForOperation = false
        switch lock.operationStarting() {
        case .proceed, .unavailable: return nil
        case .take: break
        }
        do {
            try store.acquireLock()
        } catch let error as DurableStorageError where error.isLockConflict {
            switch lock.lockConflict(now: now, canReclaim: reclaim != nil) {
            case .retry(let at):
                return at
            case .reclaim:
                do {
                    try moveToReclaimedStore()
                } catch {
                    reportError(error)
                    lock.lockFailed()
                    lockUnavailableForOperation = true
                    return nil
                }
            case .giveUp:
                reportError(error)
                lockUnavailableForOperation = true
                return nil
            }
        } catch {
            reportError(error)
            lock.lockFailed()
            lockUnavailableForOperation = true
            return nil
        }
        let matches = storage == .ready && diskMatchesMemory()
        if lock.lockTaken(diskMatchesMemory: matches) == .recover { storage = .needsRecovery }
        return nil
    }

    /// Whether the lock is held for the disk operation under way: taken before it
    /// (``takeLockForOperation(now:)``), or held all along. `false` when the disk
    /// cannot be used now: suspended, closed, or taking it failed before the operation.
    mutating func holdLock() -> Bool {
        switch lock.operationStarting() {
        case .proceed: return true
        case .unavailable: return false
        case .take:
            // Every operation comes through ``attempt(_:)``, which took the lock or
            // failed to; a disk pass outside one (a test's) takes it without waiting.
            guard !lockUnavailableForOperation else { return false }
            switch takeLockForOperation(now: .now) {
            case nil: return lock.phase == .held
            case .some:
                lock.lockFailed()
                return false
            }
        }
    }

    /// After a disk operation: gives the lock up when the policy says so. The age
    /// stamps are saved first when due; every descriptor is closed.
    mutating func finishOperation() {
        lockUnavailableForOperation = false
        guard lock.shouldRelease() else { return }
        if storage == .ready { saveStampsIfDue(now: clock.now()) }
        store.releaseLock()
        lock.released()
    }

    /// Whether the directory is as the writer remembers it: the same segments with the
    /// same sizes, and the same cursor. Writers only append to segments, create new ones
    /// with `O_EXCL`, delete them and replace the cursor, which only moves forward, so
    /// any change another process made while the lock was free shows here.
    func diskMatchesMemory() -> Bool {
        guard let ids = try? store.segmentIDs(), ids.elementsEqual(segments.lazy.map(\.id)) else { return false }
        for segment in segments where segment.isUnread || store.size(of: segment.id) != segment.size {
            return false
        }
        let stored = store.loadState(.cursor).flatMap(Self.decode) ?? Cursor(segment: 0, offset: 0)
        return stored == cursor
    }
}

