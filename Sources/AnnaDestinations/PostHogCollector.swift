import Anna
import Foundation

/// The PostHog instance: a cloud region's ingestion host, or a self-hosted one, for
/// ``Anna/DurableProvider/Collector/posthog(projectAPIKey:host:groupType:)``.
public struct PostHogHost: Sendable, Hashable {
    /// The instance's base URL; batches go to its `/batch/`.
    public let url: URL

    /// `https://us.i.posthog.com`: PostHog Cloud US.
    public static let us = PostHogHost("https://us.i.posthog.com")
    /// `https://eu.i.posthog.com`: PostHog Cloud EU.
    public static let eu = PostHogHost("https://eu.i.posthog.com")

    /// A self-hosted instance or a reverse proxy: `https`, or `http` on loopback.
    /// - Parameter url: The instance's base URL, e.g. `https://posthog.example.com`.
    /// - Returns: The host.
    public static func selfHosted(_ url: URL) -> PostHogHost { PostHogHost(url: url) }

    private init(url: URL) {
        self.url = url
    }

    private init(_ literal: String) {
        url = URL(string: literal) ?? URL(fileURLWithPath: "/")
    }

    var batchURL: URL { url.appendingPathComponent("batch").appendingPathComponent("") }
}

extension DurableProvider.Collector {
    /// PostHog's capture API (`/batch/`), without PostHog's SDK.
    ///
    /// ```swift
    /// let posthog = try DurableProvider(
    ///     collector: .posthog(projectAPIKey: "phc_…", host: .eu),
    ///     storage: .directory(posthogFolder))
    /// ```
    ///
    /// The wire format follows https://posthog.com/docs/api/capture, read 2026-11-27
    /// from the reference as published: `distinct_id`, `uuid` from Anna's message id,
    /// `$screen` with `$screen_name`, `$identify` with `$set`, `$groupidentify` with
    /// `$group_type`, `$group_key` and `$group_set`, `$create_alias`. Bodies are capped
    /// at PostHog's 20 MB and events at 1 MB. The provider is named `PostHogProvider`;
    /// its options default to ``Anna/ProviderProfile/posthog``. The Destinations
    /// article has the mapping table and what each answer does.
    ///
    /// The project API key (`phc_…`) is public: PostHog's own app SDKs ship it. A
    /// personal API key (`phx_…`) reads and changes the whole organisation's data: the
    /// provider's initializer refuses it with ``DestinationError`` with code
    /// ``DestinationError/Code/serverSecret``, and an empty key with
    /// ``DestinationError/Code/missingKey``.
    /// - Parameters:
    ///   - projectAPIKey: The project API key, `phc_…`.
    ///   - host: PostHog Cloud US by default.
    ///   - groupType: The group type a `group` call sets (`$group_type`).
    /// - Returns: The collector.
    public static func posthog(projectAPIKey: String, host: PostHogHost = .us, groupType: String = "company") -> Self {
        var problem: DestinationError?
        if projectAPIKey.isEmpty {
            problem = DestinationError(.missingKey, "PostHogProvider needs the project API key (phc_…)")
        } else if projectAPIKey.hasPrefix("phx_") {
            problem = DestinationError(
                .serverSecret,
                "PostHogProvider was given a personal API key (phx_…), a server secret that must never ship in an app; "
                    + "use the project API key (phc_…) from the project's settings")
        }
        return Self(
            name: "PostHogProvider",
            wire: PostHogWire(endpoint: host.batchURL, projectAPIKey: projectAPIKey, groupType: groupType),
            options: ProviderOptions(profile: .posthog),
            limits: .init(maxBatchSize: 20_000_000, maxEventSize: 1_000_000),
            problem: problem)
    }
}
