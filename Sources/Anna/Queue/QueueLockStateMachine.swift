/// Every decision about a queue's storage lock, as a value: when to take it, when to
/// give it up, whether what the queue remembers of its folder still holds after
/// taking it back, and what to do when another queue holds it. It does no I/O and
/// reads no clock: the queue's writer (``DurableQueue``) asks it before and after
/// each disk operation and performs what it returns.
///
/// Under ``DeliveryStorage/LockPolicy/whileRunning`` the lock is held from the start
/// until ``suspend()`` or ``close()``. Under ``DeliveryStorage/LockPolicy/aroundIO`` it
/// is taken before each disk operation and given up after it.
///
/// While the lock is free another process may change the folder: adopt (acknowledge)
/// its records, delete segments, purge, or, for another instance of the same program,
/// claim the queue and write to it. So after taking the lock back the writer compares
/// the folder with its memory of it (segment names, sizes, the cursor); any difference
/// means recovering from the folder, as at open: what it remembered is dropped, what
/// is buffered in memory is written after the recovery. Records read before the lock
/// was given up may then be acknowledged by both processes (the cursor only moves
/// forward) and sent twice, with one message id; none is lost.
///
/// A value owned by the writer's serial queue.
struct QueueLockStateMachine {
    typealias Instant = ContinuousClock.Instant

    /// Where the lock is.
    enum Phase: Equatable {
        /// Held: disk operations go ahead.
        case held
        /// Given up between operations (``DeliveryStorage/LockPolicy/aroundIO``): the
        /// next operation takes it back.
        case idle
        /// Given up by ``DurableQueue/releaseLock()``: nothing touches the disk until
        /// ``resume()``.
        case suspended
        /// The queue is gone.
        case closed
    }

    /// What to do before a disk operation.
    enum Access: Equatable {
        /// The lock is held: go ahead.
        case proceed
        /// Take the lock (without waiting), then report with ``lockTaken(diskMatchesMemory:)``
        /// or ``lockConflict(now:canReclaim:)``.
        case take
        /// No disk now (suspended or closed): leave buffered records in memory.
        case unavailable
    }

    /// What the lock, once taken, says about the writer's memory of the folder.
    enum Taken: Equatable {
        /// The folder is as the writer left it: go on from memory.
        case useMemory
        /// Something changed it, or the writer knows nothing yet: recover from the folder.
        case recover
    }

    /// What to do when another queue holds the lock.
    enum Conflict: Equatable {
        /// Try again at this instant (``retryDelay`` from now): an adopting process
        /// holds a queue's lock for a moment. The writer's queue waits on its timer,
        /// with nothing else of the writer's let in before.
        case retry(at: Instant)
        /// Held for longer than ``patience``: move to another queue of the shared folder.
        case reclaim
        /// Held for longer than ``patience`` and nowhere else to go: the operation fails
        /// (buffered records are counted as ``DurableQueue/DropReason/storageUnavailable``
        /// and reported); the next one tries again.
        case giveUp
    }

    let policy: DeliveryStorage.LockPolicy
    /// How long a conflict is waited out before the queue moves elsewhere.
    let patience: Duration
    /// How long to wait between two tries while waiting a conflict out.
    let retryDelay: Duration
    private(set) var phase: Phase
    /// When the current run of conflicts began.
    private var conflictSince: Instant?

    /// A machine for a queue whose initializer has just taken the lock.
    init(
        policy: DeliveryStorage.LockPolicy, patience: Duration = .milliseconds(200),
        retryDelay: Duration = .milliseconds(2)
    ) {
        self.policy = policy
        self.patience = patience
        self.retryDelay = retryDelay
        phase = .held
    }

    /// Before a disk operation (a write, a read, an acknowledgement, a purge, recovery).
    mutating func operationStarting() -> Access {
        switch phase {
        case .held: return .proceed
        case .idle: return .take
        case .suspended, .closed: return .unavailable
        }
    }

    /// The lock was taken. `diskMatchesMemory`: the folder's segments, their sizes and
    /// the cursor are what the writer remembers (`false` when it remembers nothing).
    mutating func lockTaken(diskMatchesMemory: Bool) -> Taken {
        phase = .held
        conflictSince = nil
        return diskMatchesMemory ? .useMemory : .recover
    }

    /// Another queue holds the lock.
    mutating func lockConflict(now: Instant, canReclaim: Bool) -> Conflict {
        let since = conflictSince ?? now
        conflictSince = since
        guard since.duration(to: now) >= patience else { return .retry(at: now + retryDelay) }
        conflictSince = nil
        return canReclaim ? .reclaim : .giveUp
    }

    /// Taking the lock failed for another reason than a conflict (or a reclaim failed):
    /// the operation is skipped; the next one tries again.
    mutating func lockFailed() {
        conflictSince = nil
    }

    /// After a disk operation: `true` when the lock is to be given up now.
    func shouldRelease() -> Bool {
        phase == .held && policy == .aroundIO
    }

    /// The writer gave the lock up after an operation.
    mutating func released() {
        if phase == .held { phase = .idle }
    }

    /// Whether the queue may still use the disk (held or idle): ``DurableQueue/releaseLock()``
    /// then writes what is buffered before giving the lock up.
    var isActive: Bool { phase == .held || phase == .idle }

    /// ``DurableQueue/releaseLock()`` gave the lock up.
    mutating func suspend() {
        if isActive { phase = .suspended }
    }

    /// ``DurableQueue/reacquireLock()``: `true` when the writer is to take the lock
    /// (then ``lockTaken(diskMatchesMemory:)``, always recovering: the app was away).
    func shouldResume() -> Bool {
        phase == .suspended
    }

    /// The queue is being deallocated.
    mutating func close() {
        phase = .closed
    }
}
