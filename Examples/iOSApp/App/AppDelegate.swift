import Anna
import AnnaApple
import AnnaUIKit
import UIKit

/// The app delegate: one service and one focus-path manager for the process, made at
/// launch, before any view exists.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    /// Every event goes to a Segment-compatible collector, durably, and follows the
    /// platform's lifecycle: it flushes when the app goes to the background.
    let analytics: AnalyticsService = {
        let folder = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
            .appendingPathComponent("Analytics", isDirectory: true)
        let providers: [any AnalyticsProvider]
        do {
            providers = [try DurableProvider(
                endpoint: URL(string: "https://api.segment.io/v1/batch")!,
                writeKey: "YOUR_WRITE_KEY",
                storage: .directory(folder))]
        } catch {
            // A folder another process holds, or that cannot be created: report to the
            // log rather than lose the app's launch.
            print("analytics: \(error)")
            providers = [LogProvider()]
        }
        return AnalyticsService(providers: providers, configuration: .init(lifecycle: .platform))
    }()

    /// The tasks of shop-ios.anna.yml, matched against the app's focus paths.
    private(set) lazy var manager = Manager(service: analytics, tasks: [.shopiOS])

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        manager.delegate = self
        useRootAnalyzer(of: manager)            // this delegate's analyzer is the root of every path
        AnnaCapture.enableAutomaticCapture()    // appearances, selections, actions, touches
        return true
    }

    func application(_ application: UIApplication, configurationForConnecting connectingSceneSession: UISceneSession,
                     options: UIScene.ConnectionOptions) -> UISceneConfiguration {
        let configuration = UISceneConfiguration(name: nil, sessionRole: connectingSceneSession.role)
        configuration.delegateClass = SceneDelegate.self
        return configuration
    }
}

extension AppDelegate: ManagerDelegate {
    // The manager calls its delegate on `delegateQueue`, the main queue by default; the
    // protocol's requirements are nonisolated, so they enter the main actor themselves.
    nonisolated func manager(_ manager: Manager, didSend result: AnalyticsEvent) {
        print("focus path reported \(result.name)")
    }

    nonisolated func manager(_ manager: Manager, didCatch error: any Error) {
        print("a task failed: \(error)")
    }
}
