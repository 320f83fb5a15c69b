import Anna
import Foundation

/// Mixpanel's Ingestion API, `/track` with `strict=1`, as documented at
/// https://developer.mixpanel.com/reference/track-event and
/// https://docs.mixpanel.com/docs/tracking-methods/id-management/identifying-users-simplified,
/// read 2026-11-27 from the reference as published.
///
/// Body: a JSON array of `{"event":…,"properties":{…}}`, the project token in each
/// event's properties (no authorization header: the token is a client-side key).
/// Answers: 200 accepted; 400 with `failed_records` (what `strict=1` gives): the valid
/// records were ingested, those named are dropped and reported; a 400 that names none
/// splits the batch; 413 splits; 429 and 5xx retry, honouring `Retry-After`.
struct MixpanelWire: CollectorWire {
    let endpoint: URL
    let token: String
    let headers: [(name: String, value: String)] = []
    /// Mixpanel documents gzip for `/import`, not for `/track`.
    let acceptsGzip = false
    let bodyOverhead = 2
    /// Screens arrive as `Screen Viewed` track events; groups and aliases are not sent.
    let receivedKinds: Set<AnalyticsEnvelope.Kind> = [.track, .identify]

    func makeEncoder() -> any CollectorRecordEncoder { Encoder(token: token) }

    /// A JSON array of events.
    private static let prefix = Array("[".utf8), suffix = Array("]".utf8)

    func body<Records: Collection>(_ records: Records, sentAt: Date) -> [UInt8] where Records.Element == [UInt8] {
        BatchBody.joined(records, prefix: Self.prefix, suffix: Self.suffix)
    }

    func classify(_ response: CollectorTransport.Response, records: Int) -> CollectorTransport.Answer {
        guard response.error == nil, response.status == 400, let json = VendorAnswer.object(response.body),
            let failed = json["failed_records"] as? [[String: Any]], !failed.isEmpty
        else { return VendorAnswer.common(response) }
        var reasons: [Int: String] = [:]
        for record in failed {
            guard let index = VendorAnswer.int(record["index"]) else { continue }
            let field = record["field"] as? String ?? "?"
            let message = record["message"] as? String ?? ""
            reasons[index] = "\(field): \(message)"
        }
        guard !reasons.isEmpty else { return VendorAnswer.common(response) }
        return .recordsRejected(status: 400, reasons: reasons, restAccepted: true)
    }

    /// Properties the encoder writes itself; a parameter of the same name is not sent.
    static let reservedProperties: Set<String> = ["token", "time", "distinct_id"]

    /// One event, by the envelope's kind:
    /// - track: `event` the event's name, its parameters among the properties;
    /// - identify: `event` `$identify` (Simplified ID Merge: the event carrying both
    ///   `$user_id` and `$device_id` links them); traits are not sent (they are profile
    ///   properties, which Mixpanel takes at `/engage`).
    ///
    /// Properties: `token`, `time` in ms, `distinct_id` (the user id when identified,
    /// `$device:<anonymous id>` before), `$device_id` (the anonymous id), `$user_id`
    /// (when identified), `$insert_id` (the message id, 36 characters: Mixpanel drops
    /// a repeat), `$os`, `$os_version`, `$app_version_string`, `$app_build_number`,
    /// `$model`, `$manufacturer`, `mp_lib`, `$lib_version`, and `anna_plan` for an event
    /// generated from a versioned plan (Segment's `context.plan` object).
    struct Encoder: CollectorRecordEncoder {
        let token: String

        mutating func encode(_ envelope: AnalyticsEnvelope, into out: inout [UInt8]) {
            var json = JSONWriter(into: out)
            json.open()
            json.string("event", envelope.kind == .identify ? "$identify" : envelope.event.name)
            json.openObject("properties")
            if envelope.kind != .identify { json.fields(envelope.event.parameters, skipping: MixpanelWire.reservedProperties) }
            json.string("token", token)
            json.number("time", envelope.timestamp.millisecondsSince1970)
            json.string("distinct_id", envelope.userID ?? "$device:" + envelope.anonymousID)
            if !envelope.anonymousID.isEmpty { json.string("$device_id", envelope.anonymousID) }
            json.string("$user_id", envelope.userID)
            json.uuid("$insert_id", envelope.messageID)
            let context = envelope.context
            if !context.os.name.isEmpty { json.string("$os", context.os.name) }
            if !context.os.version.isEmpty { json.string("$os_version", context.os.version) }
            json.string("$app_version_string", context.app.version)
            json.string("$app_build_number", context.app.build)
            json.string("$model", context.device.model)
            json.string("$manufacturer", context.device.manufacturer)
            json.string("mp_lib", context.library.name)
            json.string("$lib_version", context.library.version)
            json.plan("anna_plan", envelope.event.metadata.plan, branch: context.planBranch)
            json.close()
            json.close()
            out = json.out
        }
    }
}
