import Anna
import Foundation

#if canImport(Darwin)
extension AppLifecycle {
    /// This process's lifecycle on Apple platforms, for
    /// ``Anna/AnalyticsService/Configuration/lifecycle``:
    ///
    /// - in an app, the application's notifications (UIKit on iOS, iPadOS, tvOS,
    ///   visionOS and Mac Catalyst; AppKit on macOS; WatchKit on watchOS), with
    ///   background time from `UIApplication.beginBackgroundTask` (or
    ///   `ProcessInfo.performExpiringActivity` on watchOS);
    /// - in an app extension, its host's notifications (`NSExtensionHost…`) and
    ///   `ProcessInfo.performExpiringActivity`: an extension gets no application
    ///   notifications and may not use `UIApplication.shared`.
    ///
    /// Which one is decided once, from the main bundle (`.appex` or not). It may be read
    /// from any thread; the notifications are observed from the main thread on.
    ///
    /// ```swift
    /// import Anna
    /// import AnnaApple
    ///
    /// let analytics = AnalyticsService(providers: [http], configuration: .init(lifecycle: .platform))
    /// ```
    public static var platform: AppLifecycle { PlatformLifecycle.shared }
}

/// The one lifecycle source of the process, made on first use.
enum PlatformLifecycle {
    static let shared: AppLifecycle = {
        let host = AppHost.current
        let lifecycle = AppLifecycle(backgroundWindow: host == .appExtension
            ? ExtensionHostLifecycle.backgroundWindow() : ApplicationLifecycle.backgroundWindow())
        // The notification names of AppKit and WatchKit (and UIKit's before the iOS 18
        // SDK) are main-actor: they are read, and observed, on the main actor.
        onMainActor {
            let events = host == .appExtension ? ExtensionHostLifecycle.notifications() : ApplicationLifecycle.notifications()
            let center = NotificationCenter.default
            for (name, event) in events {
                _ = center.addObserver(forName: name, object: nil, queue: nil) { _ in lifecycle.send(event) }
            }
        }
        return lifecycle
    }()

    /// Runs `body` on the main actor: now when on the main thread, else at its next turn.
    static func onMainActor(_ body: @escaping @MainActor @Sendable () -> Void) {
        if Thread.isMainThread {
            MainActor.assumeIsolated(body)
        } else {
            DispatchQueue.main.async { MainActor.assumeIsolated(body) }
        }
    }
}
#endif
