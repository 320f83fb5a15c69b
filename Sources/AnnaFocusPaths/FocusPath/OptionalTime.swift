import Foundation

/// A `Date?` in 8 bytes: NaN stands for `nil`.
struct OptionalTime {
    private var seconds = Double.nan

    /// Whether a time is set.
    var isSet: Bool { !seconds.isNaN }

    /// The time; `nil` when unset.
    var date: Date? {
        get { seconds.isNaN ? nil : Date(timeIntervalSinceReferenceDate: seconds) }
        set { seconds = newValue?.timeIntervalSinceReferenceDate ?? .nan }
    }
}
