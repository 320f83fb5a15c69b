import Anna
import Foundation

/// Amplitude's data center, or another host taking its APIs (a proxy), for
/// ``Anna/DurableProvider/Collector/amplitude(apiKey:region:api:groupType:)``.
public struct AmplitudeRegion: Sendable, Hashable {
    /// The host's base URL; the ``AmplitudeAPI`` adds its path.
    public let baseURL: URL

    /// `https://api2.amplitude.com`: Amplitude's US data center.
    public static let us = AmplitudeRegion("https://api2.amplitude.com")
    /// `https://api.eu.amplitude.com`: Amplitude's EU data center.
    public static let eu = AmplitudeRegion("https://api.eu.amplitude.com")

    /// Another host taking the same paths and body, e.g. a proxy: `https`, or
    /// `http` on loopback.
    /// - Parameter baseURL: The host's base URL, e.g. `https://amplitude-proxy.example.com`.
    /// - Returns: The region.
    public static func custom(_ baseURL: URL) -> AmplitudeRegion { AmplitudeRegion(baseURL: baseURL) }

    private init(baseURL: URL) {
        self.baseURL = baseURL
    }

    private init(_ literal: String) {
        baseURL = URL(string: literal) ?? URL(fileURLWithPath: "/")
    }
}

/// Which of Amplitude's ingestion APIs takes the events; both take the same body.
public enum AmplitudeAPI: Sendable, Hashable {
    /// The HTTP V2 API, `/2/httpapi`.
    case httpV2
    /// The Batch Event Upload API, `/batch`: higher per-device rate limits, for
    /// backlogs and server-side sending.
    case batch

    var path: String {
        switch self {
        case .httpV2: "2/httpapi"
        case .batch: "batch"
        }
    }
}

extension DurableProvider.Collector {
    /// Amplitude's HTTP V2 API (or its Batch API), without Amplitude's SDK.
    ///
    /// ```swift
    /// let amplitude = try DurableProvider(
    ///     collector: .amplitude(apiKey: "<project API key>", region: .eu),
    ///     storage: .directory(amplitudeFolder))
    /// ```
    ///
    /// The wire format follows https://amplitude.com/docs/apis/analytics/http-v2 and
    /// https://amplitude.com/docs/apis/analytics/batch-event-upload, read 2026-11-27 from
    /// the reference as published: events, `$identify` for traits, `$groupidentify` for
    /// groups, `insert_id` from Anna's message id. Screens arrive as `Screen Viewed`
    /// events; aliases are not sent (Amplitude maps users through a separate API).
    /// Batches are capped at Amplitude's 2,000 events and 1 MB. The provider is named
    /// `AmplitudeProvider`; its options default to ``Anna/ProviderProfile/amplitude``.
    /// The Destinations article has the mapping table and what each answer does.
    ///
    /// The API key is the project's client-side key, which Amplitude's own app SDKs
    /// ship; never give it the project's secret key (Amplitude cannot tell them apart by
    /// their form, so the provider cannot refuse it). An empty key makes the provider's
    /// initializer throw ``DestinationError`` with code ``DestinationError/Code/missingKey``.
    /// - Parameters:
    ///   - apiKey: The project's API key (client-side; not the secret key).
    ///   - region: Amplitude's US data center by default.
    ///   - api: The HTTP V2 API by default; ``AmplitudeAPI/batch`` for the Batch API.
    ///   - groupType: The group type a `group` call sets (`groups` of `$groupidentify`).
    /// - Returns: The collector.
    public static func amplitude(
        apiKey: String, region: AmplitudeRegion = .us, api: AmplitudeAPI = .httpV2, groupType: String = "group"
    ) -> Self {
        Self(
            name: "AmplitudeProvider",
            wire: AmplitudeWire(endpoint: region.baseURL.appendingPathComponent(api.path), apiKey: apiKey, groupType: groupType),
            options: ProviderOptions(profile: .amplitude),
            limits: .init(maxBatchCount: 2000, maxBatchSize: 1_000_000),
            problem: apiKey.isEmpty ? DestinationError(.missingKey, "AmplitudeProvider needs the project's API key") : nil)
    }
}
