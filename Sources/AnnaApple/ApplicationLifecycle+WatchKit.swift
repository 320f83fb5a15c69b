#if os(watchOS)
import Anna
import WatchKit

/// A watch app's lifecycle from WatchKit's notifications, with background time from
/// `ProcessInfo.performExpiringActivity`. Not compiled on Linux; see the README.
@MainActor enum ApplicationLifecycle {
    static func make() -> AppLifecycle {
        let lifecycle = AppLifecycle(backgroundWindow: ExpiringActivityWindow())
        PlatformLifecycle.forward([
            (WKApplication.didFinishLaunchingNotification, .launched),
            (WKApplication.willEnterForegroundNotification, .foreground),
            (WKApplication.didEnterBackgroundNotification, .background),
        ], to: lifecycle)
        return lifecycle
    }
}
#endif
