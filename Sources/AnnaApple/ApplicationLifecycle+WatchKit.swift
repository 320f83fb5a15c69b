#if os(watchOS)
import Anna
import WatchKit

/// A watch app's lifecycle from WatchKit's notifications (watchOS 7 and later), with
/// background time from `ProcessInfo.performExpiringActivity`. Not compiled on Linux;
/// see the ApplePlatforms article (Sources/Anna/Anna.docc).
enum ApplicationLifecycle {
    static func backgroundWindow() -> any BackgroundWindow { ExpiringActivityWindow() }

    @MainActor static func notifications() -> [(Notification.Name, AppLifecycleEvent)] {
        [
            (WKApplication.didFinishLaunchingNotification, .launched),
            (WKApplication.willEnterForegroundNotification, .foreground),
            (WKApplication.didEnterBackgroundNotification, .background),
        ]
    }
}
#endif
