import Foundation

/// What kind of process the code runs in, which decides where its lifecycle comes
/// from: an app gets its application's notifications; an app extension gets none of
/// them and must not use the shared application, so it follows its host's
/// (`NSExtensionHost…` notifications) instead.
package enum AppHost: String, Sendable, Hashable, CaseIterable {
    /// An app: its bundle is an `.app`, or there is no bundle (a command-line tool).
    case application
    /// An app extension: its bundle is an `.appex` (widgets, share, notification
    /// service and every other extension point).
    case appExtension

    /// The kind of the process whose main bundle is at `bundleURL`.
    /// - Parameter bundleURL: The main bundle's location (`Bundle.main.bundleURL`).
    /// - Returns: ``appExtension`` for an `.appex` bundle, ``application`` otherwise.
    package static func of(bundleAt bundleURL: URL) -> AppHost {
        bundleURL.pathExtension.lowercased() == "appex" ? .appExtension : .application
    }

    /// The kind of this process.
    package static var current: AppHost { of(bundleAt: Bundle.main.bundleURL) }
}
