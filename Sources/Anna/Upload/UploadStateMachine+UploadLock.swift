/// The shared folder's upload lock, as the upload machine decides on it
/// (``UploadStateMachine/Step/takeUploadLock``): on a shared folder a process takes
/// it before each request, so one process of the app's group uploads at a time. While
/// another process holds it, the machine tries again after a pause that grows from
/// 5 ms to 160 ms, and gives up after about one request's time
/// (``UploadStateMachine/Configuration/uploadLockPatience``): a failed attempt,
/// backed off like any other. The driver holds the lock (a `flock`) for one request
/// and gives it back when the machine says.
struct UploadLockWait: Equatable {
    private static let firstPause = Duration.milliseconds(5)
    private static let longestPause = Duration.milliseconds(160)

    /// Whether the driver holds the lock now.
    private(set) var isHeld = false
    /// When to try again, while another process holds it.
    private(set) var retryAt: ContinuousClock.Instant?
    private var busySince: ContinuousClock.Instant?
    private var pause = firstPause

    /// The driver took the lock.
    mutating func taken() {
        isHeld = true
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

    /// The step for a batch ready to send: on a shared folder, the upload lock first.
    func sendStep(_ range: Range<Int>, now: Instant) -> Step {
        guard configuration.adoptsOrphans, !uploadLock.isHeld else { return .send(range) }
        if let retryAt = uploadLock.retryAt, now < retryAt { return .wait(until: retryAt) }
        return .takeUploadLock
    }
}
