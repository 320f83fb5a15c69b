#if canImport(AppKit) && !targetEnvironment(macCatalyst)
import Anna
import AppKit

/// A macOS app's lifecycle from AppKit's notifications. A Mac app is not suspended, so
/// it needs no background time: it flushes when it stops being the active app and
/// resumes when it is active again. Not compiled on Linux; see the ApplePlatforms article (Sources/Anna/Anna.docc).
enum ApplicationLifecycle {
    static func backgroundWindow() -> any BackgroundWindow { UnlimitedBackgroundWindow() }

    @MainActor static func notifications() -> [(Notification.Name, AppLifecycleEvent)] {
        [
            (NSApplication.didFinishLaunchingNotification, .launched),
            (NSApplication.didBecomeActiveNotification, .foreground),
            (NSApplication.didResignActiveNotification, .background),
            (NSApplication.willTerminateNotification, .willTerminate),
        ]
    }
}
#endif
