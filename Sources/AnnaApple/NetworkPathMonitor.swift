#if canImport(Network)
import Anna
import Dispatch
import Network

/// Feeds the system's network path to durable providers, whatever their collector
/// (Segment's API, Amplitude, Mixpanel, PostHog): `NWPathMonitor`'s updates,
/// translated to ``NetworkPath``, go to ``DurableProvider/networkPathChanged(_:)``,
/// so nothing is sent while the device is offline and uploads resume as soon as a
/// path returns.
///
/// ```swift
/// let pathMonitor = NetworkPathMonitor(providers: [segment, amplitude])   // keep it as long as the providers
/// ```
///
/// `NWPathMonitor` is available since iOS 12, macOS 10.14, tvOS 12 and watchOS 5
/// (`isConstrained` since iOS 13, macOS 10.15, tvOS 13, watchOS 6), below Anna's
/// minimums, and in app extensions. Its handler runs on the monitor's own serial
/// queue; the providers take the path from any thread. A path that
/// `requiresConnection` counts as reachable: a request may bring it up.
public final class NetworkPathMonitor {
    private let monitor = NWPathMonitor()

    /// Starts monitoring; updates go to `providers` until the monitor is released.
    /// - Parameter providers: The providers told of every path.
    public init(providers: [DurableProvider]) {
        monitor.pathUpdateHandler = { path in
            let translated = NetworkPath(
                isReachable: path.status != .unsatisfied, isExpensive: path.isExpensive,
                isConstrained: path.isConstrained)
            for provider in providers { provider.networkPathChanged(translated) }
        }
        monitor.start(queue: DispatchQueue(label: "anna.network-path"))
    }

    deinit { monitor.cancel() }
}
#endif
