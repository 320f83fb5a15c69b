@_spi(Capture) import AnnaFocusPaths
import Foundation

extension HeadlessApplication {
    /// Sends ``Anna/AppLifecycleEvent/launched``.
    public func launch() { lifecycle.send(.launched) }
    /// Sends ``Anna/AppLifecycleEvent/background``, as `didEnterBackground`.
    public func enterBackground() { lifecycle.send(.background) }
    /// Sends ``Anna/AppLifecycleEvent/foreground``, as `willEnterForeground`.
    public func enterForeground() { lifecycle.send(.foreground) }
    /// Sends ``Anna/AppLifecycleEvent/willTerminate``; returns when the service is done
    /// with it (at most its termination wait, 2 seconds).
    public func terminate() { lifecycle.send(.willTerminate) }

    /// The lifecycle's background window, when it is a ``HeadlessBackgroundWindow``
    /// (the default).
    public var backgroundWindow: HeadlessBackgroundWindow? {
        lifecycle.backgroundWindow as? HeadlessBackgroundWindow
    }
}

/// A background window under the test's control: it counts the windows started and
/// running, and ``expire()`` ends them as the platform does when time runs out.
public final class HeadlessBackgroundWindow: BackgroundWindow {
    private struct State {
        var started = 0
        var running: [Int: @Sendable () -> Void] = [:]
        var expired = 0
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = LockedState(State())

    /// Creates a window.
    public init() {}

    /// How many windows were started.
    public var startedCount: Int { state.withLock { $0.started } }
    /// How many windows are running now.
    public var runningCount: Int { state.withLock { $0.running.count } }
    /// How many windows were expired by ``expire()``.
    public var expiredCount: Int { state.withLock { $0.expired } }

    /// Starts a window: runs `work` in a task, off the cooperative pool where the system
    /// allows (as the platform windows do), and ends the window when it returns.
    public func run(
        named name: String, _ work: @escaping @Sendable () async -> Void, expired: @escaping @Sendable () -> Void
    ) {
        let id = state.withLock { state -> Int in
            state.started += 1
            state.running[state.started] = expired
            return state.started
        }
        startOffThePool(label: "anna.headless-background-window") {
            await work()
            self.end(id)
        }
    }

    /// Runs the expiration handler of every running window and ends them, as the
    /// platform does when the background time is up.
    public func expire() {
        let handlers = state.withLock { state -> [Int: @Sendable () -> Void] in
            let handlers = state.running
            state.expired += handlers.count
            return handlers
        }
        for (id, handler) in handlers.sorted(by: { $0.key < $1.key }) {
            handler()
            end(id)
        }
    }

    /// Returns once no window is running.
    public func waitUntilIdle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { state -> Bool in
                if state.running.isEmpty { return true }
                state.idleWaiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    private func end(_ id: Int) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.running[id] = nil
            guard state.running.isEmpty else { return [] }
            defer { state.idleWaiters = [] }
            return state.idleWaiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
