#if canImport(UIKit) && !os(watchOS)
import Anna
import UIKit

/// An app's lifecycle from UIKit's notifications (iOS, iPadOS, tvOS, visionOS, Mac
/// Catalyst). Not compiled on Linux; see the ApplePlatforms article (Sources/Anna/Anna.docc).
enum ApplicationLifecycle {
    static func backgroundWindow() -> any BackgroundWindow { UIKitBackgroundWindow() }

    @MainActor static func notifications() -> [(Notification.Name, AppLifecycleEvent)] {
        [
            (UIApplication.didFinishLaunchingNotification, .launched),
            (UIApplication.willEnterForegroundNotification, .foreground),
            (UIApplication.didEnterBackgroundNotification, .background),
            (UIApplication.willTerminateNotification, .willTerminate),
        ]
    }
}

/// Background time from `UIApplication.beginBackgroundTask(withName:expirationHandler:)`.
///
/// The task begins synchronously when the window is asked for on the main thread (the
/// service asks from the `didEnterBackground` notification, before the app can be
/// suspended), and is ended exactly once (``Anna/BackgroundTaskLedger``): when the work
/// finishes, or synchronously inside the expiration handler, as iOS requires.
/// `UIApplication.shared` is reached through the Objective-C runtime so that this
/// module stays usable in app extensions, where the property is unavailable (there,
/// ``PlatformLifecycle`` uses ``ExtensionHostLifecycle`` instead).
struct UIKitBackgroundWindow: BackgroundWindow {
    func run(named name: String, _ work: @escaping @Sendable () async -> Void, expired: @escaping @Sendable () -> Void) {
        if Thread.isMainThread {
            MainActor.assumeIsolated { Self.begin(named: name, work, expired: expired) }
        } else {
            DispatchQueue.main.async { Self.begin(named: name, work, expired: expired) }
        }
    }

    @MainActor private static func begin(
        named name: String, _ work: @escaping @Sendable () async -> Void, expired: @escaping @Sendable () -> Void
    ) {
        guard let application = UIApplication.sharedIfApp else {
            startOffThePool(label: "anna.background-window", work)
            return
        }
        let ledger = Ledger()
        let identifier = application.beginBackgroundTask(withName: name) {
            MainActor.assumeIsolated {
                expired()
                if let identifier = ledger.state.expired() { application.endBackgroundTask(identifier) }
            }
        }
        if let identifier = ledger.state.began(identifier), identifier != .invalid {
            application.endBackgroundTask(identifier)
        }
        startOffThePool(label: "anna.background-window") {
            await work()
            await MainActor.run {
                if let identifier = ledger.state.workFinished(), identifier != .invalid {
                    application.endBackgroundTask(identifier)
                }
            }
        }
    }

    /// The ledger of one window, on the main actor.
    @MainActor private final class Ledger {
        var state = BackgroundTaskLedger<UIBackgroundTaskIdentifier>()
    }
}

extension UIApplication {
    /// `UIApplication.shared` in an app, `nil` in an app extension, without naming the
    /// property (unavailable in extensions, so naming it would stop this module from
    /// building for one).
    @MainActor static var sharedIfApp: UIApplication? {
        guard AppHost.current == .application else { return nil }
        let selector = NSSelectorFromString("sharedApplication")
        guard UIApplication.responds(to: selector) else { return nil }
        return UIApplication.perform(selector)?.takeUnretainedValue() as? UIApplication
    }
}
#endif
