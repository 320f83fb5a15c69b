import Foundation

/// A moment in the app's life that the service acts on.
public enum AppLifecycleEvent: String, Sendable, Hashable, CaseIterable {
    /// The app finished launching. The service counts its own start as the launch, so
    /// a source need not send this one to a service created at launch.
    case launched
    /// The app came back to the foreground.
    case foreground
    /// The app went to the background and may be suspended soon.
    case background
    /// The app is about to terminate.
    case willTerminate
}

/// Time the platform grants to finish work in the background before the app is
/// suspended: `UIApplication.beginBackgroundTask` on iOS, `ProcessInfo.performExpiringActivity`
/// elsewhere on Apple platforms, none needed on Linux.
public protocol BackgroundWindow: Sendable {
    /// Runs `work` in a window of background time and ends the window when it returns.
    /// When the platform ends the window first, `expired` is called, on any thread,
    /// while `work` may still run; the window ends after `expired` returns.
    /// - Parameters:
    ///   - name: What the work is, for the platform's diagnostics.
    ///   - work: The work; the window lasts until it returns.
    ///   - expired: Called when the time runs out first.
    func run(
        named name: String, _ work: @escaping @Sendable () async -> Void,
        expired: @escaping @Sendable () -> Void)
}

/// A background window that never expires: for platforms without suspension (Linux,
/// a command-line tool) and tests that do not exercise expiry.
package struct UnlimitedBackgroundWindow: BackgroundWindow {
    /// Creates a window.
    package init() {}

    /// Runs `work` in a task; `expired` is never called. Where a task can prefer an
    /// executor (Linux, iOS and tvOS 18, macOS 15) the task runs on a queue of its own,
    /// not the cooperative pool (``startOffThePool(label:_:)``).
    package func run(
        named name: String, _ work: @escaping @Sendable () async -> Void, expired: @escaping @Sendable () -> Void
    ) {
        startOffThePool(label: "anna.background-window", work)
    }
}

/// A platform-neutral source of the app's lifecycle: platform adapters (or tests)
/// ``send(_:)`` what happens, and the service listens.
///
/// ```swift
/// let lifecycle = AppLifecycle()               // on Apple platforms: AnnaApple's AppLifecycle.platform
/// let analytics = AnalyticsService(providers: [http], configuration: .init(lifecycle: lifecycle))
/// lifecycle.send(.background)                  // the service flushes in a background window
/// ```
///
/// Observers are called synchronously on the sender's thread, in the order they were
/// added; the service's observer only queues work and returns at once.
public final class AppLifecycle: Sendable {
    /// A registration of ``observe(_:)``; ``cancel()`` ends it.
    package final class Observation: Sendable {
        private let lifecycle: AppLifecycle
        private let id: Int

        fileprivate init(lifecycle: AppLifecycle, id: Int) {
            self.lifecycle = lifecycle
            self.id = id
        }

        /// Stops the observer from being called.
        package func cancel() {
            _ = lifecycle.state.withLock { $0.observers.removeValue(forKey: id) }
        }

        deinit { cancel() }
    }

    private struct State {
        var observers: [Int: @Sendable (AppLifecycleEvent) -> Void] = [:]
        var nextID = 0
        var last: AppLifecycleEvent?
    }

    private let state = LockedState(State())
    /// Where the service flushes when the app goes to the background.
    public let backgroundWindow: any BackgroundWindow

    /// Creates a source.
    /// - Parameter backgroundWindow: How to get background time; `nil`, the default,
    ///   runs the flush without a time limit, as a process that is not suspended may.
    public init(backgroundWindow: (any BackgroundWindow)? = nil) {
        self.backgroundWindow = backgroundWindow ?? UnlimitedBackgroundWindow()
    }

    /// The last event sent, if any.
    package var lastEvent: AppLifecycleEvent? { state.withLock { $0.last } }

    /// Whether the app is in the background now: the last event was
    /// ``AppLifecycleEvent/background``.
    package var isInBackground: Bool { lastEvent == .background }

    /// Tells every observer what happened.
    /// - Parameter event: What happened.
    public func send(_ event: AppLifecycleEvent) {
        let observers = state.withLock { state -> [@Sendable (AppLifecycleEvent) -> Void] in
            state.last = event
            return state.observers.sorted { $0.key < $1.key }.map(\.value)
        }
        for observer in observers { observer(event) }
    }

    /// Calls `observer` with each event sent from now on, until the returned
    /// observation is cancelled or released.
    /// - Parameter observer: What to call.
    /// - Returns: The registration; keep it as long as the observer should be called.
    package func observe(_ observer: @escaping @Sendable (AppLifecycleEvent) -> Void) -> Observation {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            state.observers[state.nextID] = observer
            return state.nextID
        }
        return Observation(lifecycle: self, id: id)
    }
}
