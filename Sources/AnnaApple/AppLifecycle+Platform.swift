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
    /// Which one is decided once, from the main bundle (`.appex` or not). Read it on the
    /// main actor, where an app sets up its analytics:
    ///
    /// ```swift
    /// import Anna
    /// import AnnaApple
    ///
    /// let analytics = AnalyticsService(providers: [http], configuration: .init(lifecycle: .platform))
    /// ```
    @MainActor public static var platform: AppLifecycle { PlatformLifecycle.shared }
}

/// The one lifecycle source of the process, made on first use.
@MainActor enum PlatformLifecycle {
    static let shared: AppLifecycle = {
        switch AppHost.current {
        case .appExtension:
            return ExtensionHostLifecycle.make()
        case .application:
            return ApplicationLifecycle.make()
        }
    }()

    /// Forwards each notification to the lifecycle; the observations last as long as the process.
    static func forward(_ events: [(Notification.Name, AppLifecycleEvent)], to lifecycle: AppLifecycle) {
        let center = NotificationCenter.default
        for (name, event) in events {
            _ = center.addObserver(forName: name, object: nil, queue: nil) { _ in lifecycle.send(event) }
        }
    }
}
#endif
