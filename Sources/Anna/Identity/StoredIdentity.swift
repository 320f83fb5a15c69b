import Foundation

/// What the service keeps across launches: who the user is, what they chose, and
/// where the session and the app's version stood.
///
/// An ``IdentityStore`` saves it; the service reads it before it processes the first
/// event and writes the fields it changes, one patch at a time, off the caller's thread.
///
/// Its JSON names the layout's version under `version` (1 today). A state without one
/// is read as version 1; decoding a later version throws, so that its choices are
/// never read wrongly or rewritten. Keys this version does not know are kept and written back, so a later
/// version's fields survive a launch of this one.
public struct StoredIdentity: Sendable, Hashable, Codable {
    /// The version of the layout this Anna writes and the latest it reads.
    package static let formatVersion = 1

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
    /// The keys this version does not know, as read: written back unchanged.
    private var unknownKeys: [String: UnknownValue] = [:]

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
        case version
        case anonymousID, userID, traits, piiTraits, grantedConsent, isOptedOut, sessionID, lastActivity
        case appVersion, appBuild, globals, piiGlobals
    }

    /// Decodes a state; fields an earlier version did not write take their defaults, and
    /// keys this version does not know are kept.
    /// - Throws: An error naming both versions when `version` is later than this Anna
    ///   reads; a `DecodingError` when the state is damaged.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // Checked first: a later layout may keep these keys with another meaning.
        let version = try container.decodeIfPresent(Int.self, forKey: .version) ?? 1
        guard version <= Self.formatVersion else {
            throw NewerFormatError(found: version, supported: Self.formatVersion)
        }
        guard version >= 1 else {
            throw DecodingError.dataCorruptedError(
                forKey: .version, in: container, debugDescription: "version \(version) was never written")
        }
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
        let others = try decoder.container(keyedBy: UnknownKey.self)
        for key in others.allKeys where CodingKeys(stringValue: key.stringValue) == nil {
            unknownKeys[key.stringValue] = try others.decode(UnknownValue.self, forKey: key)
        }
    }

    /// Encodes the state with its `version`, and the keys it read but does not know.
    /// - Parameter encoder: The encoder.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.formatVersion, forKey: .version)
        try container.encode(anonymousID, forKey: .anonymousID)
        try container.encodeIfPresent(userID, forKey: .userID)
        try container.encode(traits, forKey: .traits)
        try container.encode(piiTraits, forKey: .piiTraits)
        try container.encodeIfPresent(grantedConsent, forKey: .grantedConsent)
        try container.encode(isOptedOut, forKey: .isOptedOut)
        try container.encode(sessionID, forKey: .sessionID)
        try container.encodeIfPresent(lastActivity, forKey: .lastActivity)
        try container.encodeIfPresent(appVersion, forKey: .appVersion)
        try container.encodeIfPresent(appBuild, forKey: .appBuild)
        try container.encode(globals, forKey: .globals)
        try container.encode(piiGlobals, forKey: .piiGlobals)
        guard !unknownKeys.isEmpty else { return }
        var others = encoder.container(keyedBy: UnknownKey.self)
        for (key, value) in unknownKeys { try others.encode(value, forKey: UnknownKey(key)) }
    }

    /// A state whose `version` is later than this Anna reads: it is left as it is.
    package struct NewerFormatError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The version the state declares.
        package var found: Int
        /// The latest version this Anna reads, `StoredIdentity.formatVersion`.
        package var supported: Int

        /// Names both versions.
        package var description: String {
            "it was written in version \(found) of the layout, by a later Anna; this Anna reads up to version \(supported)"
        }
    }
}

/// Any key of a state's JSON object.
private struct UnknownKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// A JSON value kept as read, to be written back: integers stay integers.
private indirect enum UnknownValue: Sendable, Hashable, Codable {
    case null, bool(Bool), int(Int64), double(Double), string(String)
    case array([UnknownValue]), object([String: UnknownValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Int64.self) { self = .int(value) }
        else if let value = try? container.decode(Double.self) { self = .double(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([UnknownValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: UnknownValue].self)) }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
