// Apple-only adapters: they translate platform callbacks into `AppLifecycle.send(_:)`
// and background time into `BackgroundWindow`. All decisions live in the
// platform-neutral code. Not compiled on Linux, where this project is tested.
import Foundation

extension AppLifecycle {
    /// The app's lifecycle from the platform's notifications: UIKit's on iOS, tvOS and
    /// visionOS, AppKit's on macOS; `nil` where there is none (Linux, watchOS).
    public static var platform: AppLifecycle? { PlatformLifecycle.shared }
}

#if canImport(UIKit) && !os(watchOS)
import UIKit

/// `UIApplication.beginBackgroundTask(withName:expirationHandler:)`.
struct UIKitBackgroundWindow: BackgroundWindow {
    func run(named name: String, _ work: @escaping @Sendable () async -> Void, expired: @escaping @Sendable () -> Void) {
        Task { @MainActor in
            let identifier = LockedState(UIBackgroundTaskIdentifier.invalid)
            let end: @Sendable () -> Void = {
                Task { @MainActor in
                    let current = identifier.withLock { id -> UIBackgroundTaskIdentifier in
                        defer { id = .invalid }
                        return id
                    }
                    if current != .invalid { UIApplication.shared.endBackgroundTask(current) }
                }
            }
            let started = UIApplication.shared.beginBackgroundTask(withName: name) {
                expired()
                end()
            }
            identifier.withLock { $0 = started }
            Task.detached {
                await work()
                end()
            }
        }
    }
}

enum PlatformLifecycle {
    static let shared: AppLifecycle? = {
        let lifecycle = AppLifecycle(backgroundWindow: UIKitBackgroundWindow())
        let center = NotificationCenter.default
        let events: [(Notification.Name, AppLifecycleEvent)] = [
            (UIApplication.didFinishLaunchingNotification, .launched),
            (UIApplication.willEnterForegroundNotification, .foreground),
            (UIApplication.didEnterBackgroundNotification, .background),
            (UIApplication.willTerminateNotification, .willTerminate),
        ]
        for (name, event) in events {
            _ = center.addObserver(forName: name, object: nil, queue: nil) { _ in lifecycle.send(event) }
        }
        return lifecycle
    }()
}

#elseif canImport(AppKit)
import AppKit

/// `ProcessInfo.performExpiringActivity(withReason:using:)`: the block runs on a
/// background thread and must not return before the work is done.
struct ExpiringActivityWindow: BackgroundWindow {
    func run(named name: String, _ work: @escaping @Sendable () async -> Void, expired: @escaping @Sendable () -> Void) {
        ProcessInfo.processInfo.performExpiringActivity(withReason: name) { isExpired in
            if isExpired { return expired() }
            let done = DispatchSemaphore(value: 0)
            Task.detached {
                await work()
                done.signal()
            }
            done.wait()
        }
    }
}

enum PlatformLifecycle {
    static let shared: AppLifecycle? = {
        let lifecycle = AppLifecycle(backgroundWindow: ExpiringActivityWindow())
        let center = NotificationCenter.default
        let events: [(Notification.Name, AppLifecycleEvent)] = [
            (NSApplication.didFinishLaunchingNotification, .launched),
            (NSApplication.didBecomeActiveNotification, .foreground),
            (NSApplication.didResignActiveNotification, .background),
            (NSApplication.willTerminateNotification, .willTerminate),
        ]
        for (name, event) in events {
            _ = center.addObserver(forName: name, object: nil, queue: nil) { _ in lifecycle.send(event) }
        }
        return lifecycle
    }()
}

#else

enum PlatformLifecycle {
    static let shared: AppLifecycle? = nil
}

#endif
