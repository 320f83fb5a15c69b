import Anna
import Foundation

/// PostHog's capture API, `POST /batch/`, as documented at
/// https://posthog.com/docs/api/capture, read 2026-11-27 from the reference as published.
///
/// Body: `{"api_key":"phc_…","historical_migration":false,"batch":[…]}`, gzip-compressed
/// (`Content-Encoding: gzip`) unless the configuration turns it off. Answers: 200
/// accepted; 400 refuses the whole batch, which is split until the refused events are
/// alone; 413 splits; 429 and 503 back off, honouring `Retry-After`; other 5xx retry.
struct PostHogWire: CollectorWire {
    let endpoint: URL
    let projectAPIKey: String
    let groupType: String
    let headers: [(name: String, value: String)] = []
    let acceptsGzip = true
    let bodyOverhead: Int
    let receivedKinds = Set(AnalyticsEnvelope.Kind.allCases)

    /// `{"api_key":"…","historical_migration":false,"batch":[`, made once.
    private let prefix: [UInt8]
    private static let suffix = Array("]}".utf8)

    init(endpoint: URL, projectAPIKey: String, groupType: String) {
        self.endpoint = endpoint
        self.projectAPIKey = projectAPIKey
        self.groupType = groupType
        bodyOverhead = 64 + projectAPIKey.utf8.count
        var prefix = Array(#"{"api_key":"#.utf8)
        TrackingAPIEncoder.string(projectAPIKey, into: &prefix)
        prefix.append(contentsOf: #","historical_migration":false,"batch":["#.utf8)
        self.prefix = prefix
    }

    func makeEncoder() -> any CollectorRecordEncoder { Encoder(groupType: groupType) }

    func body<Records: Collection>(_ records: Records, sentAt: Date) -> [UInt8] where Records.Element == [UInt8] {
        BatchBody.joined(records, prefix: prefix, suffix: Self.suffix)
    }

    func classify(_ response: CollectorTransport.Response, records: Int) -> CollectorTransport.Answer {
        VendorAnswer.common(response)
    }

    /// One event of the batch, by the envelope's kind:
    /// - track: `event` the event's name, its parameters as properties;
    /// - screen: `event` `$screen`, `$screen_name` the screen's name, its parameters;
    /// - identify: `event` `$identify`, `$set` the traits, `$anon_distinct_id` the anonymous id;
    /// - group: `event` `$groupidentify`, `$group_type`, `$group_key` the group id, `$group_set` the traits;
    /// - alias: `event` `$create_alias`, `alias` the former id (the anonymous id without one);
    ///
    /// each with `distinct_id` (the user id when identified, else the anonymous id),
    /// `timestamp` (ISO 8601), `uuid` (the message id: PostHog drops a repeat) and the
    /// properties `$lib`, `$lib_version`, `$os`, `$os_version`, `$app_version`,
    /// `$app_build`, `$app_namespace`, `$device_model`, `$device_manufacturer`,
    /// `$locale`, `$timezone`, and `anna_plan` for an event generated from a versioned
    /// plan (Segment's `context.plan` object).
    struct Encoder: CollectorRecordEncoder {
        let groupType: String

        mutating func encode(_ envelope: AnalyticsEnvelope, into out: inout [UInt8]) {
            var json = JSONWriter(into: out)
            json.open()
            let parameters = envelope.event.parameters
            switch envelope.kind {
            case .track: json.string("event", envelope.event.name)
            case .screen: json.string("event", "$screen")
            case .identify: json.string("event", "$identify")
            case .group: json.string("event", "$groupidentify")
            case .alias: json.string("event", "$create_alias")
            }
            json.string("distinct_id", envelope.userID ?? envelope.anonymousID)
            json.openObject("properties")
            switch envelope.kind {
            case .track:
                json.fields(parameters)
            case .screen:
                json.fields(parameters)
                json.string("$screen_name", envelope.event.name)
            case .identify:
                json.object("$set", parameters)
                if !envelope.anonymousID.isEmpty { json.string("$anon_distinct_id", envelope.anonymousID) }
            case .group:
                json.string("$group_type", groupType)
                json.string("$group_key", envelope.groupID ?? "")
                json.object("$group_set", parameters)
            case .alias:
                json.string("alias", envelope.previousID ?? envelope.anonymousID)
            }
            let context = envelope.context
            json.string("$lib", context.library.name)
            json.string("$lib_version", context.library.version)
            if !context.os.name.isEmpty { json.string("$os", context.os.name) }
            if !context.os.version.isEmpty { json.string("$os_version", context.os.version) }
            json.string("$app_version", context.app.version)
            json.string("$app_build", context.app.build)
            json.string("$app_namespace", context.app.namespace)
            json.string("$device_model", context.device.model)
            json.string("$device_manufacturer", context.device.manufacturer)
            if !context.locale.isEmpty { json.string("$locale", context.locale) }
            if !context.timezone.isEmpty { json.string("$timezone", context.timezone) }
            json.plan("anna_plan", envelope.event.metadata.plan, branch: context.planBranch)
            json.close()
            json.timestamp("timestamp", envelope.timestamp)
            json.uuid("uuid", envelope.messageID)
            json.close()
            out = json.out
        }
    }
}
