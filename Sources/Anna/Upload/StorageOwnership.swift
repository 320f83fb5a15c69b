/// Where a durable queue's storage is around a suspension, and what the app asked
/// last: the part of ``UploadStateMachine`` that orders the queue's lock. The
/// uploader thread, the machine's one driver, releases and retakes the storage when
/// the machine says (``UploadStateMachine/Step/releaseStorage`` and
/// ``UploadStateMachine/Step/retakeStorage``) and reports back; `suspend()` and
/// `resume()` only feed inputs and wait. So whatever order those calls arrive in,
/// one thread acts on the storage, one step at a time, and the app's last call wins.
///
/// "Suspended" lives here and nowhere else: the machine and the provider compute it
/// (``isSuspended``).
struct StorageOwnership: Equatable {
    /// Where the storage is.
    enum State: Equatable {
        /// The queue holds its files and locks.
        case held
        /// The driver is releasing it.
        case releasing
        /// Released: appends wait in memory.
        case released
        /// The driver is retaking it.
        case retaking
    }

    /// What the driver does with the storage now.
    enum Action: Equatable {
        /// Nothing.
        case none
        /// Release the queue's storage.
        case release
        /// Retake the queue's storage.
        case retake
    }

    private(set) var state = State.held
    /// What the app asked last: suspended (`true`) or running.
    private(set) var wantsSuspended = false

    /// Suspended: the app asked for it, or the storage is not held (yet, or again).
    /// The uploader sends nothing and reads nothing while suspended.
    var isSuspended: Bool { wantsSuspended || state != .held }

    /// The app is about to be suspended.
    mutating func suspendRequested() { wantsSuspended = true }

    /// The app came back.
    mutating func resumeRequested() { wantsSuspended = false }

    /// The action due when the driver asks, holding no records: release when the app
    /// wants the storage released and it is held, retake when it wants it back and it
    /// is released. Marks it under way.
    mutating func next() -> Action {
        switch state {
        case .held where wantsSuspended:
            state = .releasing
            return .release
        case .released where !wantsSuspended:
            state = .retaking
            return .retake
        case .held, .released, .releasing, .retaking:
            return .none
        }
    }

    /// The release ended.
    mutating func released() {
        state = .released
    }

    /// The retake ended; when it failed the storage stays released and the app's
    /// wish turns to suspended: a later `resume()` tries again.
    /// - Parameter succeeded: Whether the queue holds its storage again.
    mutating func retaken(_ succeeded: Bool) {
        state = succeeded ? .held : .released
        if !succeeded { wantsSuspended = true }
    }
}
