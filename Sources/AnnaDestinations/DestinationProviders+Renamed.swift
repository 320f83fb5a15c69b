import Anna
import Foundation

// Issue 40: the vendors' provider classes became collectors of the one
// `DurableProvider`. Their initializers keep compiling, deprecated, through these
// names; the nested `Region`, `API` and `Host` types are now `AmplitudeRegion`,
// `AmplitudeAPI`, `MixpanelRegion` and `PostHogHost`.

/// Renamed: a ``Anna/DurableProvider`` with the collector
/// ``Anna/DurableProvider/Collector/amplitude(apiKey:region:api:groupType:)``.
@available(*, deprecated, message: "write DurableProvider(collector: .amplitude(apiKey:region:api:groupType:), storage:)")
public typealias AmplitudeProvider = DurableProvider
/// Renamed: a ``Anna/DurableProvider`` with the collector
/// ``Anna/DurableProvider/Collector/mixpanel(token:region:)``.
@available(*, deprecated, message: "write DurableProvider(collector: .mixpanel(token:region:), storage:)")
public typealias MixpanelProvider = DurableProvider
/// Renamed: a ``Anna/DurableProvider`` with the collector
/// ``Anna/DurableProvider/Collector/posthog(projectAPIKey:host:groupType:)``.
@available(*, deprecated, message: "write DurableProvider(collector: .posthog(projectAPIKey:host:groupType:), storage:)")
public typealias PostHogProvider = DurableProvider

extension DurableProvider {
    /// Renamed: `DurableProvider(collector: .amplitude(apiKey:region:api:groupType:), storage:options:configuration:)`.
    /// - Parameters:
    ///   - apiKey: The project's API key.
    ///   - storage: Where events wait.
    ///   - region: Amplitude's data center.
    ///   - api: The HTTP V2 or the Batch API.
    ///   - groupType: The group type a `group` call sets.
    ///   - options: PII, naming and profile.
    ///   - configuration: Flush triggers, retries and the queue.
    /// - Throws: What `init(collector:storage:options:configuration:)` throws.
    @available(*, deprecated, message: "write DurableProvider(collector: .amplitude(apiKey:region:api:groupType:), storage:)")
    public convenience init(
        apiKey: String, storage: DeliveryStorage, region: AmplitudeRegion = .us, api: AmplitudeAPI = .httpV2,
        groupType: String = "group", options: ProviderOptions = ProviderOptions(profile: .amplitude),
        configuration: Configuration = Configuration()
    ) throws {
        try self.init(
            collector: .amplitude(apiKey: apiKey, region: region, api: api, groupType: groupType), storage: storage,
            options: options, configuration: configuration)
    }

    /// Renamed: `DurableProvider(collector: .mixpanel(token:region:), storage:options:configuration:)`.
    /// - Parameters:
    ///   - token: The project token.
    ///   - storage: Where events wait.
    ///   - region: Mixpanel's data residency.
    ///   - options: PII, naming and profile.
    ///   - configuration: Flush triggers, retries and the queue.
    /// - Throws: What `init(collector:storage:options:configuration:)` throws.
    @available(*, deprecated, message: "write DurableProvider(collector: .mixpanel(token:region:), storage:)")
    public convenience init(
        token: String, storage: DeliveryStorage, region: MixpanelRegion = .us,
        options: ProviderOptions = ProviderOptions(profile: .mixpanel), configuration: Configuration = Configuration()
    ) throws {
        try self.init(
            collector: .mixpanel(token: token, region: region), storage: storage, options: options,
            configuration: configuration)
    }

    /// Renamed: `DurableProvider(collector: .posthog(projectAPIKey:host:groupType:), storage:options:configuration:)`.
    /// - Parameters:
    ///   - projectAPIKey: The project API key, `phc_…`.
    ///   - storage: Where events wait.
    ///   - host: The PostHog instance.
    ///   - groupType: The group type a `group` call sets.
    ///   - options: PII, naming and profile.
    ///   - configuration: Flush triggers, retries and the queue.
    /// - Throws: What `init(collector:storage:options:configuration:)` throws.
    @available(*, deprecated, message: "write DurableProvider(collector: .posthog(projectAPIKey:host:groupType:), storage:)")
    public convenience init(
        projectAPIKey: String, storage: DeliveryStorage, host: PostHogHost = .us, groupType: String = "company",
        options: ProviderOptions = ProviderOptions(profile: .posthog), configuration: Configuration = Configuration()
    ) throws {
        try self.init(
            collector: .posthog(projectAPIKey: projectAPIKey, host: host, groupType: groupType), storage: storage,
            options: options, configuration: configuration)
    }
}
