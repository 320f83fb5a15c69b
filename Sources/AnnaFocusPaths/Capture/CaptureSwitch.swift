/// Whether automatic capture is on, and whether platform hooks must be installed.
///
/// Hooks are installed the first time capture turns on and never removed: turning
/// capture off only clears the flag the hooks check. Removing a hook (exchanging
/// implementations back) corrupts the chain when another SDK hooked the same method
/// after Anna: its hook would call Anna's removed one, or recurse.
@_spi(Capture) public struct CaptureSwitch: Sendable, Hashable {
    /// Whether capture is on: what every installed hook checks before it records.
    public private(set) var isOn = false
    /// Whether the hooks were installed (once, at the first ``turnOn()``).
    public private(set) var areHooksInstalled = false

    /// Off, with nothing installed.
    public init() {}

    /// Turns capture on; returns `true` when the hooks must be installed now (the
    /// first time only).
    public mutating func turnOn() -> Bool {
        isOn = true
        guard !areHooksInstalled else { return false }
        areHooksInstalled = true
        return true
    }

    /// Turns capture off. The hooks stay installed and record nothing while it is off.
    public mutating func turnOff() {
        isOn = false
    }
}
