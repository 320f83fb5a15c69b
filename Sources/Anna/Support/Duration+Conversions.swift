import Dispatch
import Foundation

/// The conversions the runtime needs from `Duration`, in one place.
extension Duration {
    /// Whole nanoseconds, saturating at `Int64`'s bounds instead of trapping.
    var saturatingNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (sum, overflowed) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
        return overflowed ? (seconds < 0 ? .min : .max) : sum
    }

    /// For Dispatch deadlines, capped far below overflow (also where `Int` is 32 bits).
    var dispatchInterval: DispatchTimeInterval {
        let cap = Int64(Int.max / 2)
        return .nanoseconds(Int(max(-cap, min(saturatingNanoseconds, cap))))
    }

    /// Seconds, for Foundation.
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
