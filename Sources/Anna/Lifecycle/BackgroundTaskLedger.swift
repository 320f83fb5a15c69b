/// The bookkeeping of one platform background task (`UIApplication.beginBackgroundTask`):
/// it must be ended exactly once, synchronously in the expiration handler when time
/// runs out (iOS terminates an app whose expiration handler returns with the task
/// still open), or when the work finishes.
///
/// The Apple adapter keeps one per window, on the main thread, and only calls the
/// platform with what it returns.
package struct BackgroundTaskLedger<Identifier: Hashable & Sendable>: Sendable {
    private enum State: Sendable {
        case notStarted
        case running(Identifier)
        case ended
    }

    private var state = State.notStarted
    private var finishedBeforeBegin = false

    /// A task not begun yet.
    package init() {}

    /// The platform began the task. Returns the identifier to end at once when the
    /// work already finished (or the window expired) before the task could begin.
    package mutating func began(_ identifier: Identifier) -> Identifier? {
        guard case .notStarted = state else { return identifier }
        if finishedBeforeBegin {
            state = .ended
            return identifier
        }
        state = .running(identifier)
        return nil
    }

    /// The work finished: returns the identifier to end now, once.
    package mutating func workFinished() -> Identifier? {
        end()
    }

    /// The expiration handler runs: returns the identifier to end now, synchronously,
    /// before the handler returns.
    package mutating func expired() -> Identifier? {
        end()
    }

    /// Whether the task was ended (or will be ended as soon as it begins).
    package var isEnded: Bool {
        if case .ended = state { return true }
        return finishedBeforeBegin
    }

    private mutating func end() -> Identifier? {
        switch state {
        case .notStarted:
            finishedBeforeBegin = true
            return nil
        case .running(let identifier):
            state = .ended
            return identifier
        case .ended:
            return nil
        }
    }
}
