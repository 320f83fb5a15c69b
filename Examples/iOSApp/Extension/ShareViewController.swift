import Anna
import AnnaApple
import UIKit

/// The share extension's principal class (`NSExtensionPrincipalClass` in its
/// Info.plist). An extension uses no `UIApplication.shared`: `.platform` follows the
/// host's notifications here, and events wait in the App Group folder that the app's
/// provider also reads, so whichever process runs next sends them.
final class ShareViewController: UIViewController {
    private static let analytics: AnalyticsService = {
        var providers: [any AnalyticsProvider] = []
        if let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.com.example.shop") {
            let folder = container.appendingPathComponent("Analytics", isDirectory: true)
            if let http = try? DurableProvider(
                endpoint: URL(string: "https://api.segment.io/v1/batch")!,
                writeKey: "YOUR_WRITE_KEY",
                storage: .shared(folder)) {
                providers.append(http)
            }
            return AnalyticsService(providers: providers,
                                    configuration: .init(storageDirectory: folder, lifecycle: .platform))
        }
        return AnalyticsService(providers: providers, configuration: .init(lifecycle: .platform))
    }()

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemBackground
        let share = UIButton(type: .system, primaryAction: UIAction(title: "Share") { [weak self] _ in
            self?.share()
        })
        share.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(share)
        NSLayoutConstraint.activate([
            share.centerXAnchor.constraint(equalTo: view.centerXAnchor),
            share.centerYAnchor.constraint(equalTo: view.centerYAnchor),
        ])
    }

    private func share() {
        Self.analytics.report(.productShared(destination: .messages))
        // Accepted events are on disk within the queue's window; wait for them before the
        // host tears the extension down.
        let context = extensionContext
        Task {
            await Self.analytics.flush()
            context?.completeRequest(returningItems: nil)
        }
    }
}
