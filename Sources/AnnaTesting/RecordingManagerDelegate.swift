import Anna
import Foundation

/// A ``Anna/ManagerDelegate`` that keeps what the manager's tasks produced, for tests.
///
/// ```swift
/// let delegate = RecordingManagerDelegate()
/// manager.delegate = delegate
/// manager.delegateQueue = delegate.queue
/// master.table.select(row: 1)
/// let results = await delegate.waitForResults(count: 1)
/// ```
public final class RecordingManagerDelegate: ManagerDelegate, @unchecked Sendable {
    /// A serial queue to use as the manager's delegate queue where the main queue does not run.
    public let queue = DispatchQueue(label: "anna.testing.manager-delegate")

    private let lock = NSLock()
    private var storedResults: [AnalyticsEvent] = []
    private var storedErrors: [String] = []
    private var waiters: [(count: Int, errors: Bool, continuation: CheckedContinuation<Void, Never>)] = []

    /// Creates a recorder.
    public init() {}

    /// The results, in order.
    public var results: [AnalyticsEvent] { lock.withLock { storedResults } }

    /// The errors' descriptions, in order.
    public var errors: [String] { lock.withLock { storedErrors } }

    /// Keeps a result.
    public func manager(_ manager: Manager, didSend result: AnalyticsEvent) {
        resume(lock.withLock {
            storedResults.append(result)
            return takeReady()
        })
    }

    /// Keeps an error's description.
    public func manager(_ manager: Manager, didCatch error: any Error) {
        resume(lock.withLock {
            storedErrors.append("\(error)")
            return takeReady()
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
            let ready = lock.withLock { () -> Bool in
                if (errors ? storedErrors.count : storedResults.count) >= count { return true }
                waiters.append((count, errors, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    private func takeReady() -> [CheckedContinuation<Void, Never>] {
        var ready: [CheckedContinuation<Void, Never>] = []
        waiters.removeAll { waiter in
            let have = waiter.errors ? storedErrors.count : storedResults.count
            guard have >= waiter.count else { return false }
            ready.append(waiter.continuation)
            return true
        }
        return ready
    }

    private func resume(_ continuations: [CheckedContinuation<Void, Never>]) {
        for continuation in continuations { continuation.resume() }
    }
}

/// A clock tests move by hand, for ``Anna/Manager/init(service:tasks:clock:standardOutput:)``.
///
/// ```swift
/// let clock = TestClock()
/// let manager = Manager(service: nil, clock: clock.now)
/// clock.advance(by: 2.5)
/// ```
public final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    /// Starts at a date, 2026-01-01 by default.
    public init(start: Date = Date(timeIntervalSince1970: 1_767_225_600)) {
        current = start
    }

    /// The time now, as a closure for the manager.
    public var now: @Sendable () -> Date {
        { [self] in lock.withLock { current } }
    }

    /// Moves the clock forward.
    public func advance(by seconds: TimeInterval) {
        lock.withLock { current += seconds }
    }
}
