import Foundation

/// An event as the service delivers it to providers: the event with the facts the
/// pipeline adds to it.
///
/// The message id and timestamp are fixed when the service takes the event in and
/// never change afterwards, through retries and restarts, so a collector can drop
/// duplicates by ``messageID``.
///
/// Besides `track` events, the service delivers the other calls of the Segment spec
/// in envelopes of their own ``kind``:
/// - ``Kind/screen``: `event.name` is the screen's name, `event.parameters` its properties;
/// - ``Kind/identify``: `userID` and the traits in `event.parameters` (`event.name` is empty);
/// - ``Kind/group``: ``groupID`` and the group's traits in `event.parameters`;
/// - ``Kind/alias``: ``previousID`` is the former identifier, `userID` the new one.
///
/// Traits carry their PII marks in `event.metadata.piiKeys`, so the same PII rules
/// apply to them as to event parameters.
public struct AnalyticsEnvelope: Sendable, Hashable, Codable {
    /// The call of the Segment spec an envelope carries.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// An event: `report`.
        case track
        /// A screen the user saw: ``AnalyticsService/screen(_:)``.
        case screen
        /// Who the user is: ``AnalyticsService/identify(userID:traits:)``.
        case identify
        /// The group the user belongs to: ``AnalyticsService/group(groupID:traits:)``.
        case group
        /// A new identifier for the user: ``AnalyticsService/alias(newUserID:)``.
        case alias
    }

    /// The call this envelope carries; ``Kind/track`` for events.
    public var kind: Kind
    /// The event. Providers receive it with their mapper's names and with PII
    /// removed or hashed unless they declare that they may receive it.
    public var event: AnalyticsEvent
    /// A unique, time-ordered identifier (UUID version 7).
    public var messageID: UUID
    /// When the event was reported.
    public var timestamp: Date
    /// The session the event belongs to: the start of the session, in milliseconds
    /// since 1970, as Amplitude and Mixpanel count sessions.
    public var sessionID: Int64 {
        get { origin.sessionID }
        set { origin = origin.with(sessionID: newValue) }
    }
    /// An identifier of the installation that does not identify the person.
    public var anonymousID: String {
        get { origin.anonymousID }
        set { origin = origin.with(anonymousID: newValue) }
    }
    /// The identifier the app gave with ``AnalyticsService/identify(userID:traits:)``, if any.
    public var userID: String? {
        get { origin.userID }
        set { origin = origin.with(userID: .some(newValue)) }
    }
    /// The app, device, operating system and library the event comes from.
    public var context: AnalyticsContext {
        get { origin.context }
        set { origin = origin.with(context: newValue) }
    }
    /// Session, identifiers and context behind one reference the pipeline shares
    /// between consecutive envelopes.
    var origin: EnvelopeOrigin
    /// The group's identifier, for ``Kind/group``.
    public var groupID: String? {
        get { callFields?.groupID }
        set { callFields = CallFields.make(groupID: newValue, previousID: previousID) }
    }
    /// The user's former identifier, for ``Kind/alias``.
    public var previousID: String? {
        get { callFields?.previousID }
        set { callFields = CallFields.make(groupID: groupID, previousID: newValue) }
    }
    /// `groupID` and `previousID` behind one reference, `nil` for events: an event's
    /// envelope, copied into every lane, stays as small as before they existed.
    private var callFields: CallFields?

    /// Creates an envelope.
    /// - Parameters:
    ///   - event: The event.
    ///   - messageID: A unique identifier.
    ///   - timestamp: When the event was reported.
    ///   - sessionID: The start of its session in milliseconds since 1970.
    ///   - anonymousID: The installation's anonymous identifier.
    ///   - userID: The user's identifier, if known.
    ///   - context: Where the event comes from.
    ///   - kind: The call; ``Kind/track`` by default.
    ///   - groupID: The group's identifier, for ``Kind/group``.
    ///   - previousID: The former user identifier, for ``Kind/alias``.
    public init(
        event: AnalyticsEvent,
        messageID: UUID,
        timestamp: Date,
        sessionID: Int64 = 0,
        anonymousID: String = "",
        userID: String? = nil,
        context: AnalyticsContext = AnalyticsContext(),
        kind: Kind = .track,
        groupID: String? = nil,
        previousID: String? = nil
    ) {
        self.kind = kind
        self.callFields = CallFields.make(groupID: groupID, previousID: previousID)
        self.event = event
        self.messageID = messageID
        self.timestamp = timestamp
        self.origin = EnvelopeOrigin(sessionID: sessionID, anonymousID: anonymousID, userID: userID, context: context)
    }
}

extension AnalyticsEnvelope {
    /// An envelope with its origin and call's fields as the pipeline holds them.
    init(
        event: AnalyticsEvent, messageID: UUID, timestamp: Date, origin: EnvelopeOrigin, kind: Kind,
        callFields: CallFields?
    ) {
        self.event = event
        self.messageID = messageID
        self.timestamp = timestamp
        self.origin = origin
        self.kind = kind
        self.callFields = callFields
    }

    private enum CodingKeys: String, CodingKey {
        case kind, event, messageID, timestamp, sessionID, anonymousID, userID, context, groupID, previousID
    }

    /// Encodes an envelope.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(event, forKey: .event)
        try container.encode(messageID, forKey: .messageID)
        try container.encode(timestamp, forKey: .timestamp)
        try container.encode(sessionID, forKey: .sessionID)
        try container.encode(anonymousID, forKey: .anonymousID)
        try container.encodeIfPresent(userID, forKey: .userID)
        try container.encode(context, forKey: .context)
        try container.encodeIfPresent(groupID, forKey: .groupID)
        try container.encodeIfPresent(previousID, forKey: .previousID)
    }

    /// Decodes an envelope; one written before envelopes had a kind is a `track`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            event: try container.decode(AnalyticsEvent.self, forKey: .event),
            messageID: try container.decode(UUID.self, forKey: .messageID),
            timestamp: try container.decode(Date.self, forKey: .timestamp),
            sessionID: try container.decode(Int64.self, forKey: .sessionID),
            anonymousID: try container.decode(String.self, forKey: .anonymousID),
            userID: try container.decodeIfPresent(String.self, forKey: .userID),
            context: try container.decode(AnalyticsContext.self, forKey: .context),
            kind: try container.decodeIfPresent(Kind.self, forKey: .kind) ?? .track,
            groupID: try container.decodeIfPresent(String.self, forKey: .groupID),
            previousID: try container.decodeIfPresent(String.self, forKey: .previousID))
    }
}

/// The fields only `group` and `alias` envelopes have, compared by value.
final class CallFields: Sendable, Hashable {
    let groupID: String?
    let previousID: String?

    private init(groupID: String?, previousID: String?) {
        self.groupID = groupID
        self.previousID = previousID
    }

    /// The fields, or `nil` when both are.
    static func make(groupID: String?, previousID: String?) -> CallFields? {
        groupID == nil && previousID == nil ? nil : CallFields(groupID: groupID, previousID: previousID)
    }

    static func == (first: CallFields, second: CallFields) -> Bool {
        first.groupID == second.groupID && first.previousID == second.previousID
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(groupID)
        hasher.combine(previousID)
    }
}
