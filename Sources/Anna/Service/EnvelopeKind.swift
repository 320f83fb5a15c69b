/// The kind of envelope `admit` builds, with the fields of that kind.
struct EnvelopeKind: Sendable {
    var kind: AnalyticsEnvelope.Kind
    var userID: String?
    var fields: CallFields?

    init(kind: AnalyticsEnvelope.Kind, userID: String? = nil, groupID: String? = nil, previousID: String? = nil) {
        self.kind = kind
        self.userID = userID
        self.fields = CallFields.make(groupID: groupID, previousID: previousID)
    }

    static let track = EnvelopeKind(kind: .track)

    /// Whether global properties are added: to events and screens.
    var carriesProperties: Bool { kind == .track || kind == .screen }
}
