import Anna
import Foundation

/// Writes the JSON of the vendors' records straight to bytes, with the Segment
/// encoder's escaping, numbers and timestamps, so every wire format quotes alike.
struct JSONWriter {
    var out: [UInt8]
    private var first = [true]

    init(into out: [UInt8]) {
        self.out = out
    }

    /// `{`: members follow.
    mutating func open() {
        out.append(UInt8(ascii: "{"))
        first.append(true)
    }

    /// `}`.
    mutating func close() {
        out.append(UInt8(ascii: "}"))
        first.removeLast()
    }

    /// `"name":`, with the comma before it when a member precedes.
    mutating func key(_ name: String) {
        if first[first.count - 1] {
            first[first.count - 1] = false
        } else {
            out.append(UInt8(ascii: ","))
        }
        TrackingAPIEncoder.string(name, into: &out)
        out.append(UInt8(ascii: ":"))
    }

    /// `"name":{…}`: the plan an event was generated from, as Segment's `context.plan`
    /// writes it; nothing for an event without one.
    mutating func plan(_ name: String, _ plan: AnalyticsEvent.PlanReference?, branch: String?) {
        guard let plan else { return }
        key(name)
        TrackingAPIEncoder.plan(plan, branch: branch, into: &out)
    }

    /// `"name":{` : an object member whose members follow.
    mutating func openObject(_ name: String) {
        key(name)
        open()
    }

    mutating func string(_ name: String, _ value: String?) {
        guard let value else { return }
        key(name)
        TrackingAPIEncoder.string(value, into: &out)
    }

    mutating func number(_ name: String, _ value: Int64) {
        key(name)
        out.append(contentsOf: String(value).utf8)
    }

    mutating func bool(_ name: String, _ value: Bool) {
        key(name)
        out.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// The message id, lowercase 8-4-4-4-12.
    mutating func uuid(_ name: String, _ value: UUID) {
        key(name)
        out.append(UInt8(ascii: "\""))
        TrackingAPIEncoder.uuid(value, into: &out)
        out.append(UInt8(ascii: "\""))
    }

    /// ISO 8601 in UTC with milliseconds.
    mutating func timestamp(_ name: String, _ value: Date) {
        key(name)
        out.append(UInt8(ascii: "\""))
        TrackingAPIEncoder.timestamp(value, into: &out)
        out.append(UInt8(ascii: "\""))
    }

    /// Every parameter as a member, values as the Segment encoder writes them (nested
    /// objects and arrays as JSON), except names in `skipping`.
    mutating func fields(_ fields: [String: AnalyticsValue], skipping: Set<String> = []) {
        for (name, value) in fields where !skipping.contains(name) {
            key(name)
            TrackingAPIEncoder.value(value, into: &out)
        }
    }

    /// `"name":{…}` of the parameters.
    mutating func object(_ name: String, _ fields: [String: AnalyticsValue]) {
        openObject(name)
        self.fields(fields)
        close()
    }
}

extension Date {
    /// Milliseconds since 1970, as Amplitude and Mixpanel count time.
    var millisecondsSince1970: Int64 {
        let raw = (timeIntervalSince1970 * 1000).rounded(.down)
        return raw.isFinite ? Int64(min(max(raw, 0), 253_402_300_799_999)) : 0
    }
}

/// Reading vendors' JSON answers.
enum VendorAnswer {
    /// The body as a JSON object, if it is one.
    static func object(_ body: Data) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
    }

    /// An integer of a JSON number.
    static func int(_ value: Any?) -> Int? {
        (value as? NSNumber)?.intValue ?? (value as? Int)
    }

    /// `2xx` or, for statuses the vendor gives no meaning of its own, what a Segment
    /// collector's would mean: 3xx never followed, 413 split, 5xx and 429 retried with `Retry-After`.
    static func common(_ response: CollectorTransport.Response) -> CollectorTransport.Answer {
        CollectorTransport.Answer(response)
    }

    /// `Retry-After` in seconds, if the response has one.
    static func retryAfter(_ response: CollectorTransport.Response) -> TimeInterval? {
        response.retryAfter.flatMap { CollectorTransport.Answer.parseRetryAfter($0) }
    }

    /// At most 200 characters of the body, for a report.
    static func excerpt(_ body: Data) -> String {
        let text = String(decoding: body.prefix(512), as: UTF8.self)
        return text.count <= 200 ? text : String(text.prefix(200)) + "…"
    }
}
