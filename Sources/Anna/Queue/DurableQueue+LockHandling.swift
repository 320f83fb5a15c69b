import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension DurableQueue.Writer {
    /// Makes sure the lock is held before a disk operation, as `lock` decides: takes
    /// it back when the policy gave it up, waiting a brief conflict out, moving to
    /// another queue of a shared folder after a long one. `false` when the disk cannot
    /// be used now.
    mutating func holdLock() -> Bool {
        switch lock.operationStarting() {
        case .proceed: return true
        case .unavailable: return false
        case .take: break
        }
        while true {
            do {
                try store.acquireLock()
            } catch let error as DurableStorageError where error.isLockConflict {
                switch lock.lockConflict(now: .now, canReclaim: reclaim != nil) {
                case .retry(let delay):
                    usleep(UInt32(clamping: delay.saturatingNanoseconds / 1000))
                    continue
                case .reclaim:
                    do {
                        try moveToReclaimedStore()
                    } catch {
                        reportError(error)
                        lock.lockFailed()
                        return false
                    }
                case .giveUp:
                    reportError(error)
                    return false
                }
            } catch {
                reportError(error)
                lock.lockFailed()
                return false
            }
            let matches = storage == .ready && diskMatchesMemory()
            if lock.lockTaken(diskMatchesMemory: matches) == .recover { storage = .needsRecovery }
            return true
        }
    }

    /// After a disk operation: gives the lock up when the policy says so. The age
    /// stamps are saved first when due; every descriptor is closed.
    mutating func finishOperation() {
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

extension DurableQueue.Writer {
    /// Runs one disk operation of the queue's, then gives the lock up if the policy says so.
    mutating func operation<Result>(_ body: (inout DurableQueue.Writer) -> Result) -> Result {
        defer { finishOperation() }
        return body(&self)
    }
}

extension QueueBound where Value == DurableQueue.Writer {
    /// Runs one disk operation of the queue's on its writer queue (checked once, in
    /// debug builds), then gives the lock up if the policy says so.
    func operation<Result>(_ body: (inout DurableQueue.Writer) -> Result) -> Result {
        withValue { $0.operation(body) }
    }
}
