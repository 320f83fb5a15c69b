/// The wait for a shared folder's `claim.lock` before a queue's lock is taken
/// (``SharedDeliveryFolder``), as a value: it does no I/O and reads no clock. A
/// try that finds `claim.lock` busy is tried again after ``pause``; once ``patience``
/// has passed since the first busy try, the queue's lock is taken without it (the
/// lock only keeps queue numbers tidy, and a process suspended while holding it must
/// not stop the others).
///
/// Whoever drives it does the waiting: the uploader's machine for an adoption
/// (``UploadStateMachine/Step/resumeAdoption(from:withoutClaimLock:)``, on its timer),
/// a purge of ended processes' queues by suspending its task, and ``SharedDeliveryFolder/claim()``
/// on the caller's thread, which has no scheduler to return to.
struct ClaimLockWait: Equatable {
    typealias Instant = ContinuousClock.Instant

    /// How long `claim.lock` is waited for, from the first busy try.
    static let patience: Duration = .milliseconds(50)
    /// The pause between two tries.
    static let pause: Duration = .milliseconds(1)

    /// When the first try found `claim.lock` busy.
    let since: Instant
    /// When to try again; `nil` once ``patience`` has passed: take the queue's lock
    /// without `claim.lock`.
    private(set) var retryAt: Instant?

    /// The first try, at `now`, found `claim.lock` busy.
    init(busyAt now: Instant) {
        since = now
        retryAt = now + Self.pause
    }

    /// Another try, at `now`, found it busy.
    mutating func busy(now: Instant) {
        retryAt = now - since < Self.patience ? now + Self.pause : nil
    }

    /// Whether the wait ran out: the queue's lock is taken without `claim.lock`.
    var isOver: Bool { retryAt == nil }
}
