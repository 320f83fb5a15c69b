import Foundation

/// An event as the service delivers it to providers: the event with the facts the
/// pipeline adds to it.
///
/// The message id and timestamp are fixed when the service takes the event in and
/// never change afterwards, through retries and restarts, so a collector can drop
/// duplicates by ``messageID``.
public struct AnalyticsEnvelope: Sendable, Hashable, Codable {
    /// The event. Providers receive it with their mapper's names and with PII
    /// removed or hashed unless they declare that they may receive it.
    public var event: AnalyticsEvent
    /// A unique, time-ordered identifier (UUID version 7).
    public var messageID: UUID
    /// When the event was reported.
    public var timestamp: Date
    /// The session the event belongs to: the start of the session, in milliseconds
    /// since 1970, as Amplitude and Mixpanel count sessions.
    public var sessionID: Int64
    /// An identifier of the installation that does not identify the person.
    public var anonymousID: String
    /// The identifier the app gave with ``AnalyticsService/identify(userID:)``, if any.
    public var userID: String?
    /// The app, device, operating system and library the event comes from.
    public var context: AnalyticsContext

    /// Creates an envelope.
    /// - Parameters:
    ///   - event: The event.
    ///   - messageID: A unique identifier.
    ///   - timestamp: When the event was reported.
    ///   - sessionID: The start of its session in milliseconds since 1970.
    ///   - anonymousID: The installation's anonymous identifier.
    ///   - userID: The user's identifier, if known.
    ///   - context: Where the event comes from.
    public init(
        event: AnalyticsEvent,
        messageID: UUID,
        timestamp: Date,
        sessionID: Int64 = 0,
        anonymousID: String = "",
        userID: String? = nil,
        context: AnalyticsContext = AnalyticsContext()
    ) {
        self.event = event
        self.messageID = messageID
        self.timestamp = timestamp
        self.sessionID = sessionID
        self.anonymousID = anonymousID
        self.userID = userID
        self.context = context
    }
}
