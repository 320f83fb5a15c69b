/// What an analytics provider accepts: checked by the generator when a spec lists
/// the provider under `providers:`, and enforced again at run time, as the last line
/// of defence, for a provider configured with the profile.
///
/// Limits come from each provider's documentation. A spec that passes its
/// providers' profiles cannot produce an event those providers silently truncate
/// or drop.
public struct ProviderProfile: Sendable, Hashable {
    /// How the provider's SDK or mapper renames events and parameters.
    package enum NameMapping: Sendable, Hashable {
        /// Names are sent as written.
        case verbatim
        /// Names are sent in snake case, as `SnakeCaseEventMapper` sends them.
        case snakeCase
    }

    /// The name used under `providers:`.
    public var name: String
    /// How names are mapped before they are sent.
    package var nameMapping: NameMapping
    /// The longest event name, in characters, after mapping.
    package var maximumEventNameLength: Int?
    /// The longest parameter name, in characters, after mapping.
    package var maximumParameterNameLength: Int?
    /// The most parameters one event may have.
    package var maximumParameters: Int?
    /// The longest string value, in characters (or UTF-8 bytes where ``countsBytes``).
    package var maximumStringLength: Int?
    /// Whether string parameters must declare `maxLength` (the provider drops or
    /// truncates longer values instead of reporting them).
    package var requiresMaxLength: Bool
    /// Whether ``maximumStringLength`` counts UTF-8 bytes rather than characters.
    package var countsBytes: Bool
    /// Whether mapped names must be ASCII letters, digits and underscores, starting with a letter.
    package var requiresIdentifierNames: Bool
    /// Event names the provider reserves for its own events, after mapping.
    package var reservedEventNames: Set<String>
    /// Name prefixes the provider reserves, for events and parameters alike.
    package var reservedPrefixes: [String]
    /// The largest event payload, in bytes, counted from declared `maxLength`s.
    package var maximumEventBytes: Int?
    /// Whether parameter values may be arrays. Firebase takes only string and number
    /// values (arrays only as its `items`), so for its profile the service sends an
    /// array as one string of its elements joined with `,`, or drops the parameter
    /// when that string is too long, and reports either as a `ProfileViolation`.
    package var acceptsArrayValues: Bool
    /// How the provider takes objects and lists of objects; see ``ObjectRules``.
    package var objectRules: ObjectRules = .unlimited

    /// The profiles Anna knows, by name.
    package static let all: [String: ProviderProfile] = Dictionary(
        uniqueKeysWithValues: [firebase, amplitude, mixpanel, posthogProfile, segment].map { ($0.name, $0) }
    )

    /// Google Analytics for Firebase: event and parameter names of at most 40
    /// characters, letters, digits and underscores, starting with a letter; at most
    /// 25 parameters; string values of at most 100 characters and no arrays; reserved
    /// event names and the `firebase_`, `google_` and `ga_` prefixes.
    public static let firebase = ProviderProfile(
        name: "firebase",
        nameMapping: .snakeCase,
        maximumEventNameLength: 40,
        maximumParameterNameLength: 40,
        maximumParameters: 25,
        maximumStringLength: 100,
        requiresMaxLength: true,
        countsBytes: false,
        requiresIdentifierNames: true,
        reservedEventNames: [
            "ad_activeview", "ad_click", "ad_exposure", "ad_impression", "ad_query", "ad_reward",
            "adunit_exposure", "app_background", "app_clear_data", "app_exception", "app_remove",
            "app_store_refund", "app_store_subscription_cancel", "app_store_subscription_convert",
            "app_store_subscription_renew", "app_update", "app_upgrade", "dynamic_link_app_open",
            "dynamic_link_app_update", "dynamic_link_first_open", "error", "first_open", "first_visit",
            "in_app_purchase", "notification_dismiss", "notification_foreground", "notification_open",
            "notification_receive", "os_update", "session_start", "session_start_with_rollout",
            "user_engagement",
        ],
        reservedPrefixes: ["firebase_", "google_", "ga_"],
        maximumEventBytes: nil,
        acceptsArrayValues: false,
        objectRules: .firebase
    )

    /// Amplitude: names and string values of at most 1,024 characters; the
    /// `[Amplitude]` and `$` prefixes are Amplitude's own. Objects and lists of
    /// objects as its JSON API takes them: it documents no depth or key limit, only
    /// requests under 1 MB (HTTP V2 API), far over what one event of a spec reaches.
    public static let amplitude = ProviderProfile(
        name: "amplitude",
        nameMapping: .verbatim,
        maximumEventNameLength: 1024,
        maximumParameterNameLength: 1024,
        maximumParameters: nil,
        maximumStringLength: 1024,
        requiresMaxLength: false,
        countsBytes: false,
        requiresIdentifierNames: false,
        reservedEventNames: [],
        reservedPrefixes: ["[Amplitude]", "$"],
        maximumEventBytes: nil,
        acceptsArrayValues: true
    )

    /// Mixpanel: names of at most 255 characters, string values of at most 255
    /// bytes, at most 255 properties an event; `$` and `mp_` are Mixpanel's own.
    public static let mixpanel = ProviderProfile(
        name: "mixpanel",
        nameMapping: .verbatim,
        maximumEventNameLength: 255,
        maximumParameterNameLength: 255,
        maximumParameters: 255,
        maximumStringLength: 255,
        requiresMaxLength: false,
        countsBytes: true,
        requiresIdentifierNames: false,
        reservedEventNames: [],
        reservedPrefixes: ["$", "mp_"],
        maximumEventBytes: nil,
        acceptsArrayValues: true,
        objectRules: .mixpanel
    )

    /// PostHog's capture API (https://posthog.com/docs/api/capture, read 2026-11-27 from
    /// the reference as published): an event of at most 1 MB; `$` starts PostHog's own
    /// events and properties (`$screen`, `$set`, `$groups`…). PostHog documents no limit
    /// on name lengths, property counts or string values, nor on nesting. Public as
    /// `ProviderProfile.posthog` in AnnaDestinations, beside the provider.
    package static let posthogProfile = ProviderProfile(
        name: "posthog",
        nameMapping: .verbatim,
        maximumEventNameLength: nil,
        maximumParameterNameLength: nil,
        maximumParameters: nil,
        maximumStringLength: nil,
        requiresMaxLength: false,
        countsBytes: true,
        requiresIdentifierNames: false,
        reservedEventNames: [],
        reservedPrefixes: ["$"],
        maximumEventBytes: 1024 * 1024,
        acceptsArrayValues: true
    )

    /// Segment's HTTP Tracking API: a message of at most 32 KB, objects and lists of
    /// objects counted in it (Segment documents no depth or key limit).
    public static let segment = ProviderProfile(
        name: "segment",
        nameMapping: .verbatim,
        maximumEventNameLength: nil,
        maximumParameterNameLength: nil,
        maximumParameters: nil,
        maximumStringLength: nil,
        requiresMaxLength: false,
        countsBytes: true,
        requiresIdentifierNames: false,
        reservedEventNames: [],
        reservedPrefixes: [],
        maximumEventBytes: 32 * 1024,
        acceptsArrayValues: true
    )

    /// A name as this provider receives it.
    /// - Parameter name: A name as declared in a spec.
    /// - Returns: The name after the provider's ``nameMapping``.
    package func mapped(_ name: String) -> String {
        switch nameMapping {
        case .verbatim: name
        case .snakeCase: SnakeCase.convert(name)
        }
    }
}
