#if canImport(Darwin)
import Anna
import Foundation

/// An app extension's lifecycle from its host's notifications: an extension receives
/// none of the application's, and may not use `UIApplication.shared`. Background time
/// comes from `ProcessInfo.performExpiringActivity` where the platform has it (not on
/// macOS, where extensions are not suspended this way). Not compiled on Linux; see the
/// ApplePlatforms article.
enum ExtensionHostLifecycle {
    static func backgroundWindow() -> any BackgroundWindow {
        #if os(macOS)
        UnlimitedBackgroundWindow()
        #else
        ExpiringActivityWindow()
        #endif
    }

    @MainActor static func notifications() -> [(Notification.Name, AppLifecycleEvent)] {
        #if os(macOS)
        // The host notifications are API_UNAVAILABLE(macos) (NSExtensionContext.h), and a
        // Mac extension is not suspended the way iOS suspends one: no events to follow.
        []
        #else
        [(.NSExtensionHostWillEnterForeground, .foreground), (.NSExtensionHostDidEnterBackground, .background)]
        #endif
    }
}

#if !os(macOS)
/// Background time from `ProcessInfo.performExpiringActivity(withReason:using:)`: the
/// block runs on a background thread and the activity lasts until it returns, so it
/// waits for the work; when time runs out the block is called again with `true`,
/// which calls `expired` and lets the first call return.
struct ExpiringActivityWindow: BackgroundWindow {
    func run(named name: String, _ work: @escaping @Sendable () async -> Void, expired: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        ProcessInfo.processInfo.performExpiringActivity(withReason: name) { isExpiring in
            if isExpiring {
                expired()
                done.signal()
                return
            }
            startOffThePool(label: "anna.background-window") {
                await work()
                done.signal()
            }
            done.wait()
        }
    }
}
#endif
#endif
