/// Who releases and who retakes a durable queue's storage around a suspension, as a
/// value: the part of ``UploadStateMachine`` that orders the queue's lock and the
/// uploads, so that one owner decides, whatever order `suspend()` and `resume()`
/// calls arrive in.
///
/// The app's last call wins (``wantsSuspended``). The storage is released only once
/// the uploader is held (it holds no records and sends nothing), and retaken only
/// once a release is done; one caller performs an action at a time (``Action``), and
/// what it reports back may hand it the next one. So a `resume()` that comes while a
/// `suspend()` still releases the storage no longer retakes it first and is then
/// undone by the release: it leaves the retake to the suspender, which finds it due
/// when its release ends.
struct StorageOwnership: Equatable {
    /// Where the storage is.
    enum State: Equatable {
        /// The queue holds its files and locks.
        case held
        /// A caller is releasing it (``Action/release``).
        case releasing
        /// Released: appends wait in memory.
        case released
        /// A caller is retaking it (``Action/retake``).
        case retaking
    }

    /// What the caller that asked does now, then reports.
    enum Action: Equatable {
        /// Nothing, or another caller is doing it.
        case none
        /// Release the queue's storage, then report ``released()``.
        case release
        /// Retake the queue's storage, then report ``retaken(_:)``.
        case retake
    }

    private(set) var state = State.held
    /// What the app asked last: suspended (`true`) or running.
    private(set) var wantsSuspended = false

    /// The app is about to be suspended.
    mutating func suspendRequested() { wantsSuspended = true }

    /// The app came back.
    mutating func resumeRequested() { wantsSuspended = false }

    /// The action due now, if no other caller performs one.
    /// - Parameter uploaderIsHeld: Whether the uploader is held for the suspension:
    ///   no release before.
    mutating func next(uploaderIsHeld: Bool) -> Action {
        switch state {
        case .held where wantsSuspended && uploaderIsHeld:
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
