/// Whether automatic capture is on, and so whether platform hooks must be installed or
/// removed: turning it on twice installs once, turning it off removes what was installed.
public struct CaptureSwitch: Sendable, Hashable {
    /// Whether the hooks are installed.
    public private(set) var isOn = false

    /// Off.
    public init() {}

    /// Turns capture on; returns `true` when the hooks must be installed now.
    public mutating func turnOn() -> Bool {
        guard !isOn else { return false }
        isOn = true
        return true
    }

    /// Turns capture off; returns `true` when the hooks must be removed now.
    public mutating func turnOff() -> Bool {
        guard isOn else { return false }
        isOn = false
        return true
    }
}
