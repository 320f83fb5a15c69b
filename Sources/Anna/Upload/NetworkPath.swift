/// What the device's network offers the uploader: whether a path to the internet
/// exists, and whether it costs the user (cellular, a personal hotspot) or is
/// constrained (Low Data Mode).
///
/// A ``DurableProvider`` makes no request while the path is unreachable, and
/// one as soon as it returns, without waiting out a backoff that failed attempts
/// during the outage began. Nothing in Anna reads the platform's network state on
/// its own: on Apple platforms `NetworkPathMonitor` (AnnaApple) feeds
/// `NWPathMonitor`'s updates to ``DurableProvider/networkPathChanged(_:)``;
/// elsewhere the path stays ``reachable`` unless the app says otherwise.
public struct NetworkPath: Sendable, Hashable, CustomStringConvertible {
    /// Whether a request can leave the device now, or could bring a path up.
    public var isReachable: Bool
    /// Whether the path costs the user: cellular, or a personal hotspot.
    public var isExpensive: Bool
    /// Whether the user asked to save data on this path (Low Data Mode).
    public var isConstrained: Bool

    /// Creates a path.
    /// - Parameters:
    ///   - isReachable: Whether a request can leave the device.
    ///   - isExpensive: Whether the path costs the user.
    ///   - isConstrained: Whether the user asked to save data on it.
    public init(isReachable: Bool, isExpensive: Bool = false, isConstrained: Bool = false) {
        self.isReachable = isReachable
        self.isExpensive = isExpensive
        self.isConstrained = isConstrained
    }

    /// A path that neither costs the user nor is constrained: the default.
    public static let reachable = NetworkPath(isReachable: true)
    /// No path: no request is made.
    public static let unreachable = NetworkPath(isReachable: false)

    /// Reachable and expensive or constrained: a path where large uploads may wait
    /// (``DurableProvider/Configuration/maxBacklogOnExpensivePath``).
    var isCostly: Bool { isReachable && (isExpensive || isConstrained) }

    /// `reachable`, `reachable (expensive, constrained)` or `unreachable`.
    public var description: String {
        guard isReachable else { return "unreachable" }
        let flags = [isExpensive ? "expensive" : nil, isConstrained ? "constrained" : nil].compactMap { $0 }
        return flags.isEmpty ? "reachable" : "reachable (\(flags.joined(separator: ", ")))"
    }
}
