/// The shared folder's upload lock, as the upload machine decides on it
/// (``UploadStateMachine/Step/takeUploadLock``): on a shared folder a process takes
/// it before each request, so one process of the app's group uploads at a time. While
/// another process holds it, the machine tries again after a pause that grows from
/// 5 ms to 160 ms, and gives up after about one request's time
/// (``UploadStateMachine/Configuration/uploadLockPatience``): a failed attempt,
/// backed off like any other. The driver holds the lock (a `flock`) for one request
/// and gives it back when the machine says.
///
/// Under ``DeliveryStorage/LockPolicy/aroundIO`` giving it back means erasing this
/// process's ``UploadLease`` from `upload.lock` under the file's `flock`, which
/// another process holds for an instant to read or write its own. When that `flock`
/// is busy the lease is left in the file and the machine has the driver try again
/// every millisecond (``UploadStateMachine/Step/eraseUploadLease``), 20 tries in all
/// counting the first; after that the lease is left to expire.
struct UploadLockWait: Equatable {
    private static let firstPause = Duration.milliseconds(5)
    private static let longestPause = Duration.milliseconds(160)
    /// The pause between two tries at erasing a lease left in `upload.lock`.
    static let leaseErasePause = Duration.milliseconds(1)
    /// The most tries at erasing a lease, the first (in giving the lock back) included.
    static let leaseEraseTries = 20

    /// Whether the driver holds the lock now.
    private(set) var isHeld = false
    /// When to try again, while another process holds it.
    private(set) var retryAt: ContinuousClock.Instant?
    private var busySince: ContinuousClock.Instant?
    private var pause = firstPause
    /// When to try again to erase this process's lease, left in `upload.lock` because
    /// its `flock` was busy; `nil` when nothing is left to erase.
    private(set) var leaseEraseAt: ContinuousClock.Instant?
    /// Tries left at erasing the lease.
    private var leaseEraseTriesLeft = 0

    /// The driver took the lock: a lease written now replaces any left before.
    mutating func taken() {
        isHeld = true
        leaseEraseAt = nil
        reset()
    }

    /// Another process holds it: whether to try again (at ``retryAt``), or give up
    /// after `patience` of trying.
    mutating func busy(now: ContinuousClock.Instant, patience: Duration) -> Bool {
        let since = busySince ?? now
        guard now - since < patience else {
            reset()
            return false
        }
        busySince = since
        retryAt = now + pause
        pause = min(pause * 2, Self.longestPause)
        return true
    }

    /// The driver gave the lock back.
    mutating func released() {
        isHeld = false
    }

    /// Giving the lock back left the lease in the file (its first try at erasing it
    /// found the `flock` busy): try again after ``leaseErasePause``.
    mutating func leaseLeft(now: ContinuousClock.Instant) {
        leaseEraseTriesLeft = Self.leaseEraseTries - 1
        leaseEraseAt = now + Self.leaseErasePause
    }

    /// The driver tried again to erase the lease: done when `erased`, else another
    /// try after ``leaseErasePause`` while tries are left, then none (it expires).
    mutating func leaseEraseTried(erased: Bool, now: ContinuousClock.Instant) {
        leaseEraseTriesLeft -= 1
        leaseEraseAt = erased || leaseEraseTriesLeft <= 0 ? nil : now + Self.leaseErasePause
    }

    /// The round that waited for it ended: the next one waits anew.
    mutating func reset() {
        busySince = nil
        retryAt = nil
        pause = Self.firstPause
    }
}

extension UploadStateMachine {
    /// The driver took the shared folder's upload lock (after ``Step/takeUploadLock``).
    mutating func uploadLockTaken() {
        uploadLock.taken()
    }

    /// Another process holds the upload lock: try again after a pause, or, after
    /// ``Configuration/uploadLockPatience``, fail the attempt as if the collector
    /// could not be reached (backoff, flushes answered).
    mutating func uploadLockBusy(now: Instant) -> [Effect] {
        guard !uploadLock.busy(now: now, patience: configuration.uploadLockPatience) else { return [] }
        return answered(.failed(status: nil, message: "another process of the shared folder is uploading", retryAfter: nil), now: now)
    }

    /// The driver gave the upload lock back (after its request, or
    /// ``Step/releaseUploadLock``).
    mutating func uploadLockReleased() {
        uploadLock.released()
    }

    /// Giving the upload lock back left this process's lease in `upload.lock`: another
    /// process held the file's `flock` for that instant. The machine has the driver
    /// try again (``Step/eraseUploadLease``) before anything else, every millisecond,
    /// 20 tries in all, as the driver's loop did before.
    mutating func uploadLeaseLeft(now: Instant) {
        uploadLock.leaseLeft(now: now)
    }

    /// The driver tried again to erase the lease (after ``Step/eraseUploadLease``):
    /// `erased` when it is gone, or nothing was left to erase.
    mutating func uploadLeaseEraseTried(erased: Bool, now: Instant) {
        uploadLock.leaseEraseTried(erased: erased, now: now)
    }

    /// The step while a lease left in `upload.lock` waits to be erased: the next try,
    /// or a wait for it. Before anything else, as when the driver waited for it.
    func leaseEraseStep(now: Instant) -> Step? {
        guard let at = uploadLock.leaseEraseAt else { return nil }
        return now < at ? .wait(until: at) : .eraseUploadLease
    }

    /// The step for a batch ready to send: on a shared folder, the upload lock first.
    func sendStep(_ range: Range<Int>, now: Instant) -> Step {
        guard configuration.adoptsOrphans, !uploadLock.isHeld else { return .send(range) }
        if let retryAt = uploadLock.retryAt, now < retryAt { return .wait(until: retryAt) }
        return .takeUploadLock
    }
}
