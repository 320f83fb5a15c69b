import Anna
import Foundation

/// Amplitude's HTTP V2 API (and its Batch API, which takes the same body), as
/// documented at https://amplitude.com/docs/apis/analytics/http-v2 and
/// https://amplitude.com/docs/apis/analytics/batch-event-upload, read 2026-11-27 from
/// the reference as published.
///
/// Body: `{"api_key":…,"events":[…],"options":{"min_id_length":1}}`, one record per
/// event. Answers: 200 accepted; 400 with `events_with_invalid_fields`,
/// `events_with_missing_fields` or `silenced_events` names the events it refuses, the
/// request ingested nothing, so those are dropped and reported and the rest sent again
/// (a 400 that names none splits the batch); 413 splits; 429 backs off at least the
/// 30 seconds Amplitude asks of throttled users and devices (`throttled_users`,
/// `throttled_devices`, `eps_threshold`), or its `Retry-After`; 5xx retries.
struct AmplitudeWire: CollectorWire {
    let endpoint: URL
    let apiKey: String
    let groupType: String
    let headers: [(name: String, value: String)] = []
    /// Amplitude documents no compressed bodies for these endpoints.
    let acceptsGzip = false
    let bodyOverhead: Int
    let receivedKinds: Set<AnalyticsEnvelope.Kind> = [.track, .identify, .group]

    /// The pause Amplitude asks for a throttled user or device.
    static let throttlePause: TimeInterval = 30

    /// `{"api_key":"…","events":[`, made once.
    private let prefix: [UInt8]
    /// Anna's user ids may be shorter than Amplitude's default minimum of 5.
    private static let suffix = Array(#"],"options":{"min_id_length":1}}"#.utf8)

    init(endpoint: URL, apiKey: String, groupType: String) {
        self.endpoint = endpoint
        self.apiKey = apiKey
        self.groupType = groupType
        bodyOverhead = 64 + apiKey.utf8.count
        var prefix = Array(#"{"api_key":"#.utf8)
        TrackingAPIEncoder.string(apiKey, into: &prefix)
        prefix.append(contentsOf: #","events":["#.utf8)
        self.prefix = prefix
    }

    func makeEncoder() -> any CollectorRecordEncoder { Encoder(groupType: groupType) }

    func body<Records: Collection>(_ records: Records, sentAt: Date) -> [UInt8] where Records.Element == [UInt8] {
        BatchBody.joined(records, prefix: prefix, suffix: Self.suffix)
    }

    func classify(_ response: CollectorTransport.Response, records: Int) -> CollectorTransport.Answer {
        guard response.error == nil, let status = response.status else { return VendorAnswer.common(response) }
        switch status {
        case 400:
            guard let json = VendorAnswer.object(response.body) else { return VendorAnswer.common(response) }
            var reasons: [Int: String] = [:]
            for (key, verb) in [("events_with_invalid_fields", "invalid"), ("events_with_missing_fields", "missing")] {
                for (field, indices) in json[key] as? [String: Any] ?? [:] {
                    for index in indices as? [Any] ?? [] {
                        guard let index = VendorAnswer.int(index) else { continue }
                        reasons[index, default: ""] += (reasons[index] == nil ? "" : ", ") + "\(verb) field '\(field)'"
                    }
                }
            }
            for index in json["silenced_events"] as? [Any] ?? [] {
                guard let index = VendorAnswer.int(index) else { continue }
                reasons[index, default: ""] += (reasons[index] == nil ? "" : ", ") + "silenced device"
            }
            guard !reasons.isEmpty else { return VendorAnswer.common(response) }
            return .recordsRejected(status: status, reasons: reasons, restAccepted: false)
        case 429:
            let json = VendorAnswer.object(response.body) ?? [:]
            let throttled = ["throttled_users", "throttled_devices", "throttled_events", "eps_threshold"]
                .contains { json[$0] != nil }
            let header = VendorAnswer.retryAfter(response)
            let message = json["error"] as? String ?? "Too Many Requests"
            return .failed(
                status: status, message: message,
                retryAfter: throttled ? max(header ?? 0, Self.throttlePause) : header)
        default:
            return VendorAnswer.common(response)
        }
    }

    /// One event of the `events` array, by the envelope's kind:
    /// - track: `event_type` the event's name, `event_properties` its parameters;
    /// - identify: `event_type` `$identify`, `user_properties` `{"$set":{…traits}}`;
    /// - group: `event_type` `$groupidentify`, `groups` `{"<group type>":"<group id>"}`,
    ///   `group_properties` `{"$set":{…traits}}`;
    ///
    /// each with `user_id` (when identified), `device_id` (the anonymous id), `time` in
    /// ms, `insert_id` (the message id: Amplitude drops a repeat within 7 days),
    /// `session_id` (the session's start in ms, `-1` without one), `app_version`,
    /// `platform` and `os_name` (the OS's name), `os_version`, `device_model`,
    /// `device_manufacturer`, `language` (the locale), `library` and `ip` `$remote`;
    /// for an event generated from a versioned plan, Amplitude's `plan`
    /// (`{"branch","source","version"}`, the source being the plan's name) and the
    /// event property `anna_event_version`.
    struct Encoder: CollectorRecordEncoder {
        let groupType: String

        mutating func encode(_ envelope: AnalyticsEnvelope, into out: inout [UInt8]) {
            var json = JSONWriter(into: out)
            json.open()
            switch envelope.kind {
            case .identify:
                json.string("event_type", "$identify")
                json.openObject("user_properties")
                json.object("$set", envelope.event.parameters)
                json.close()
            case .group:
                json.string("event_type", "$groupidentify")
                json.openObject("groups")
                json.string(groupType, envelope.groupID ?? "")
                json.close()
                json.openObject("group_properties")
                json.object("$set", envelope.event.parameters)
                json.close()
            case .track, .screen, .alias:
                // Screens arrive as `Screen Viewed` track events; alias never arrives.
                json.string("event_type", envelope.event.name)
                var properties = envelope.event.parameters
                if let plan = envelope.event.metadata.plan {
                    // Amplitude's `plan` takes branch, source and version only.
                    properties["anna_event_version"] = .string(plan.eventVersion)
                }
                json.object("event_properties", properties)
            }
            if let plan = envelope.event.metadata.plan {
                json.openObject("plan")
                json.string("branch", envelope.context.planBranch)
                json.string("source", plan.name)
                json.string("version", plan.version)
                json.close()
            }
            json.string("user_id", envelope.userID)
            if !envelope.anonymousID.isEmpty { json.string("device_id", envelope.anonymousID) }
            json.number("time", envelope.timestamp.millisecondsSince1970)
            json.uuid("insert_id", envelope.messageID)
            json.number("session_id", envelope.sessionID > 0 ? envelope.sessionID : -1)
            let context = envelope.context
            json.string("app_version", context.app.version)
            if !context.os.name.isEmpty {
                json.string("platform", context.os.name)
                json.string("os_name", context.os.name)
            }
            if !context.os.version.isEmpty { json.string("os_version", context.os.version) }
            json.string("device_model", context.device.model)
            json.string("device_manufacturer", context.device.manufacturer)
            if !context.locale.isEmpty { json.string("language", context.locale) }
            json.string("library", "\(context.library.name)/\(context.library.version)")
            json.string("ip", "$remote")
            json.close()
            out = json.out
        }
    }
}
