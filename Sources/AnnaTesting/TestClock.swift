import Anna
import Foundation

/// A clock tests move by hand, for ``AnnaFocusPaths/Manager/init(service:tasks:clock:standardOutput:)``.
///
/// ```swift
/// let clock = TestClock()
/// let manager = Manager(service: nil, clock: clock.now)
/// clock.advance(by: 2.5)
/// ```
public final class TestClock: Sendable {
    private let current: LockedState<Date>

    /// Starts at a date, 2026-01-01 by default.
    public init(start: Date = Date(timeIntervalSince1970: 1_767_225_600)) {
        current = LockedState(start)
    }

    /// The time now, as a closure for the manager.
    public var now: @Sendable () -> Date {
        { [current] in current.withLock { $0 } }
    }

    /// Moves the clock forward.
    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 += seconds }
    }
}
