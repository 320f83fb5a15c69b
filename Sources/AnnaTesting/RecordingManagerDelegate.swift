import Anna
import AnnaFocusPaths
import Foundation

/// A ``AnnaFocusPaths/ManagerDelegate`` that keeps what the manager's tasks produced, for tests.
///
/// ```swift
/// let delegate = RecordingManagerDelegate()
/// manager.delegate = delegate
/// manager.delegateQueue = delegate.queue
/// master.table.select(row: 1)
/// let results = await delegate.waitForResults(count: 1)
/// ```
public final class RecordingManagerDelegate: ManagerDelegate, Sendable {
    /// A serial queue to use as the manager's delegate queue where the main queue does not run.
    public let queue = DispatchQueue(label: "anna.testing.manager-delegate")

    private struct State {
        var results: [AnalyticsEvent] = []
        var errors: [String] = []
        var waiters: [(count: Int, errors: Bool, continuation: CheckedContinuation<Void, Never>)] = []

        mutating func takeReady() -> [CheckedContinuation<Void, Never>] {
            var ready: [CheckedContinuation<Void, Never>] = []
            waiters.removeAll { waiter in
                let have = waiter.errors ? errors.count : results.count
                guard have >= waiter.count else { return false }
                ready.append(waiter.continuation)
                return true
            }
            return ready
        }
    }

    private let state = LockedState(State())

    /// Creates a recorder.
    public init() {}

    /// The results, in order.
    public var results: [AnalyticsEvent] { state.withLock { $0.results } }

    /// The errors' descriptions, in order.
    public var errors: [String] { state.withLock { $0.errors } }

    /// Keeps a result.
    public func manager(_ manager: Manager, didSend result: AnalyticsEvent) {
        resume(state.withLock { state in
            state.results.append(result)
            return state.takeReady()
        })
    }

    /// Keeps an error's description.
    public func manager(_ manager: Manager, didCatch error: any Error) {
        resume(state.withLock { state in
            state.errors.append("\(error)")
            return state.takeReady()
        })
    }

    /// Returns the results once there are at least `count`.
    public func waitForResults(count: Int) async -> [AnalyticsEvent] {
        await wait(count: count, errors: false)
        return results
    }

    /// Returns the errors once there are at least `count`.
    public func waitForErrors(count: Int) async -> [String] {
        await wait(count: count, errors: true)
        return errors
    }

    /// Returns once every delegate call made before this one ran.
    public func drain() async {
        await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
    }

    private func wait(count: Int, errors: Bool) async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Bool in
                if (errors ? state.errors.count : state.results.count) >= count { return true }
                state.waiters.append((count, errors, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    private func resume(_ continuations: [CheckedContinuation<Void, Never>]) {
        for continuation in continuations { continuation.resume() }
    }
}
