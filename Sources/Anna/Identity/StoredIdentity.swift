import Foundation

/// What the service keeps across launches: who the user is, what they chose, and
/// where the session and the app's version stood.
///
/// An ``IdentityStore`` saves it; the service reads it before it processes the first
/// event and writes the fields it changes, one patch at a time, off the caller's thread.
public struct StoredIdentity: Sendable, Hashable, Codable {
    /// The installation's anonymous identifier, created once and kept until ``AnalyticsService/reset()``.
    public var anonymousID: String
    /// The user's identifier from ``AnalyticsService/identify(userID:traits:)``, if any.
    public var userID: String?
    /// The user's traits, merged over the `identify` calls since the user id was set.
    public var traits: [String: AnalyticsValue]
    /// The traits that are PII.
    public var piiTraits: Set<String>
    /// The consent categories the app granted last, or `nil` when it never chose:
    /// ``AnalyticsService/Configuration/grantedConsent`` applies then.
    public var grantedConsent: Set<ConsentCategory>?
    /// Whether the user opted out with ``AnalyticsService/optOut()``.
    public var isOptedOut: Bool
    /// The current session's identifier (its start in milliseconds since 1970), 0 when none.
    public var sessionID: Int64
    /// When the last event of the session was reported.
    public var lastActivity: Date?
    /// The app version and build the service saw last, for Application Installed / Updated.
    public var appVersion: String?
    /// The app build the service saw last.
    public var appBuild: String?
    /// The global properties the spec marks `persisted`, by name.
    public var globals: [String: AnalyticsValue]
    /// The persisted global properties that are PII.
    public var piiGlobals: Set<String>

    /// Creates a state.
    /// - Parameters:
    ///   - anonymousID: The installation's anonymous identifier; a new UUID by default.
    ///   - userID: The user's identifier.
    ///   - traits: The user's traits.
    ///   - piiTraits: The traits that are PII.
    ///   - grantedConsent: The app's last consent choice, `nil` when none.
    ///   - isOptedOut: Whether the user opted out.
    ///   - sessionID: The session's identifier.
    ///   - lastActivity: When the session's last event was reported.
    ///   - appVersion: The app version seen last.
    ///   - appBuild: The app build seen last.
    ///   - globals: The persisted global properties.
    ///   - piiGlobals: The persisted global properties that are PII.
    public init(
        anonymousID: String = UUID().uuidString.lowercased(),
        userID: String? = nil,
        traits: [String: AnalyticsValue] = [:],
        piiTraits: Set<String> = [],
        grantedConsent: Set<ConsentCategory>? = nil,
        isOptedOut: Bool = false,
        sessionID: Int64 = 0,
        lastActivity: Date? = nil,
        appVersion: String? = nil,
        appBuild: String? = nil,
        globals: [String: AnalyticsValue] = [:],
        piiGlobals: Set<String> = []
    ) {
        self.anonymousID = anonymousID
        self.userID = userID
        self.traits = traits
        self.piiTraits = piiTraits
        self.grantedConsent = grantedConsent
        self.isOptedOut = isOptedOut
        self.sessionID = sessionID
        self.lastActivity = lastActivity
        self.appVersion = appVersion
        self.appBuild = appBuild
        self.globals = globals
        self.piiGlobals = piiGlobals
    }

    private enum CodingKeys: String, CodingKey {
        case anonymousID, userID, traits, piiTraits, grantedConsent, isOptedOut, sessionID, lastActivity
        case appVersion, appBuild, globals, piiGlobals
    }

    /// Decodes a state; fields a later or earlier version did not write take their defaults.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            anonymousID: try container.decode(String.self, forKey: .anonymousID),
            userID: try container.decodeIfPresent(String.self, forKey: .userID),
            traits: try container.decodeIfPresent([String: AnalyticsValue].self, forKey: .traits) ?? [:],
            piiTraits: try container.decodeIfPresent(Set<String>.self, forKey: .piiTraits) ?? [],
            grantedConsent: try container.decodeIfPresent(Set<ConsentCategory>.self, forKey: .grantedConsent),
            isOptedOut: try container.decodeIfPresent(Bool.self, forKey: .isOptedOut) ?? false,
            sessionID: try container.decodeIfPresent(Int64.self, forKey: .sessionID) ?? 0,
            lastActivity: try container.decodeIfPresent(Date.self, forKey: .lastActivity),
            appVersion: try container.decodeIfPresent(String.self, forKey: .appVersion),
            appBuild: try container.decodeIfPresent(String.self, forKey: .appBuild),
            globals: try container.decodeIfPresent([String: AnalyticsValue].self, forKey: .globals) ?? [:],
            piiGlobals: try container.decodeIfPresent(Set<String>.self, forKey: .piiGlobals) ?? [])
        guard !anonymousID.isEmpty else {
            throw DecodingError.dataCorruptedError(
                forKey: .anonymousID, in: container, debugDescription: "the anonymous id is empty")
        }
    }
}
