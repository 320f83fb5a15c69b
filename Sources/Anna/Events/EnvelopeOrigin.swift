/// Who and where an envelope comes from: its session, the user's identifiers and
/// the context. The same for every event between two identity or session changes,
/// so the pipeline gives consecutive envelopes one shared, immutable object: an
/// envelope held between `report` and the disk carries one reference (8 bytes)
/// instead of these 48 bytes. Compared and hashed by its fields.
final class EnvelopeOrigin: Sendable, Hashable {
    let sessionID: Int64
    let anonymousID: String
    let userID: String?
    let context: AnalyticsContext

    init(sessionID: Int64, anonymousID: String, userID: String?, context: AnalyticsContext) {
        self.sessionID = sessionID
        self.anonymousID = anonymousID
        self.userID = userID
        self.context = context
    }

    /// Whether it carries these identifiers (the context is the service's, fixed).
    func matches(sessionID: Int64, anonymousID: String, userID: String?) -> Bool {
        self.sessionID == sessionID && self.userID == userID && self.anonymousID == anonymousID
    }

    /// A copy with one field changed, for an envelope's setters.
    func with(
        sessionID: Int64? = nil, anonymousID: String? = nil, userID: String?? = nil, context: AnalyticsContext? = nil
    ) -> EnvelopeOrigin {
        EnvelopeOrigin(
            sessionID: sessionID ?? self.sessionID, anonymousID: anonymousID ?? self.anonymousID,
            userID: userID ?? self.userID, context: context ?? self.context)
    }

    static func == (first: EnvelopeOrigin, second: EnvelopeOrigin) -> Bool {
        first === second
            || (first.sessionID == second.sessionID && first.anonymousID == second.anonymousID
                && first.userID == second.userID && first.context == second.context)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(sessionID)
        hasher.combine(anonymousID)
        hasher.combine(userID)
        hasher.combine(context)
    }
}
