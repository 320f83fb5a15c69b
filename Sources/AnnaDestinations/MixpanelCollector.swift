import Anna
import Foundation

/// Mixpanel's data residency region, or another host taking its API (a proxy), for
/// ``Anna/DurableProvider/Collector/mixpanel(token:region:)``.
public struct MixpanelRegion: Sendable, Hashable {
    /// The host's base URL; events go to its `/track?strict=1`.
    public let baseURL: URL

    /// `https://api.mixpanel.com`: US data residency.
    public static let us = MixpanelRegion("https://api.mixpanel.com")
    /// `https://api-eu.mixpanel.com`: EU data residency.
    public static let eu = MixpanelRegion("https://api-eu.mixpanel.com")
    /// `https://api-in.mixpanel.com`: India data residency.
    public static let india = MixpanelRegion("https://api-in.mixpanel.com")

    /// Another host taking `/track`, e.g. a proxy: `https`, or `http` on loopback.
    /// - Parameter baseURL: The host's base URL, e.g. `https://mixpanel-proxy.example.com`.
    /// - Returns: The region.
    public static func custom(_ baseURL: URL) -> MixpanelRegion { MixpanelRegion(baseURL: baseURL) }

    private init(baseURL: URL) {
        self.baseURL = baseURL
    }

    private init(_ literal: String) {
        baseURL = URL(string: literal) ?? URL(fileURLWithPath: "/")
    }

    /// `<base>/track?strict=1`: per-record errors for invalid events.
    var trackURL: URL {
        let base = baseURL.absoluteString.hasSuffix("/") ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
        return URL(string: base + "/track?strict=1") ?? baseURL
    }
}

extension DurableProvider.Collector {
    /// Mixpanel's Ingestion API (`/track`), without Mixpanel's SDK.
    ///
    /// ```swift
    /// let mixpanel = try DurableProvider(
    ///     collector: .mixpanel(token: "<project token>", region: .eu),
    ///     storage: .directory(mixpanelFolder))
    /// ```
    ///
    /// The wire format follows https://developer.mixpanel.com/reference/track-event and
    /// https://docs.mixpanel.com/docs/tracking-methods/id-management/identifying-users-simplified,
    /// read 2026-11-27 from the reference as published: `/track?strict=1`, the project
    /// token in each event, `distinct_id`, `$device_id` and `$user_id` as Simplified ID
    /// Merge asks, `$insert_id` from Anna's message id, `time` in milliseconds. Screens
    /// arrive as `Screen Viewed` events; `identify` sends an `$identify` event that links
    /// the user and device ids; its traits, groups and aliases are not sent (profiles and
    /// groups are Mixpanel's `/engage` and `/groups`). Batches are capped at Mixpanel's
    /// 2,000 events and 1 MB. The provider is named `MixpanelProvider`; its options
    /// default to ``Anna/ProviderProfile/mixpanel``. The Destinations article has the
    /// mapping table and what each answer does.
    ///
    /// Only `/track` with the project token: the token is public (Mixpanel's own app SDKs
    /// ship it). `/import`, which needs a service account's secret or the project secret,
    /// is not offered: a server secret must never ship in an app. Mixpanel's `/track`
    /// refuses events older than 5 days: an event kept offline longer is rejected by
    /// Mixpanel, dropped and counted. An empty token makes the provider's initializer
    /// throw ``DestinationError`` with code ``DestinationError/Code/missingKey``.
    /// - Parameters:
    ///   - token: The project token (client-side; not the project secret).
    ///   - region: US data residency by default.
    /// - Returns: The collector.
    public static func mixpanel(token: String, region: MixpanelRegion = .us) -> Self {
        Self(
            name: "MixpanelProvider",
            wire: MixpanelWire(endpoint: region.trackURL, token: token),
            options: ProviderOptions(profile: .mixpanel),
            limits: .init(maxBatchCount: 2000, maxBatchSize: 1_000_000),
            problem: token.isEmpty ? DestinationError(.missingKey, "MixpanelProvider needs the project token") : nil)
    }
}
