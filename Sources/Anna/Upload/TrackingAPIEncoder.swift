import Foundation

/// Writes envelopes as events of the Segment HTTP Tracking API, straight to bytes.
///
/// Each event is encoded once, when the provider receives it, and stored as is:
/// retries and restarts send the very bytes, message id included, that were
/// accepted. The context of consecutive events is usually the same and is encoded
/// once. Not thread-safe; the provider keeps it behind a lock.
package struct TrackingAPIEncoder {
    private var lastContext: AnalyticsContext?
    private var contextBytes: [UInt8] = []

    /// One call of the Segment spec, by the envelope's kind:
    /// - track: `{"type":"track","event":…,"properties":{…},…}`
    /// - screen: `{"type":"screen","name":…,"properties":{…},…}`
    /// - identify: `{"type":"identify","traits":{…},…}`
    /// - group: `{"type":"group","groupId":…,"traits":{…},…}`
    /// - alias: `{"type":"alias","previousId":…,…}`
    ///
    /// each followed by `"messageId":…,"timestamp":…,"anonymousId":…,"userId":…,"context":{…}`.
    package mutating func encode(_ envelope: AnalyticsEnvelope, into out: inout [UInt8]) {
        switch envelope.kind {
        case .track:
            out.append(contentsOf: #"{"type":"track","event":"#.utf8)
            Self.string(envelope.event.name, into: &out)
            out.append(contentsOf: #","properties":{"#.utf8)
            Self.fields(envelope.event.parameters, into: &out)
            out.append(UInt8(ascii: "}"))
        case .screen:
            out.append(contentsOf: #"{"type":"screen","name":"#.utf8)
            Self.string(envelope.event.name, into: &out)
            out.append(contentsOf: #","properties":{"#.utf8)
            Self.fields(envelope.event.parameters, into: &out)
            out.append(UInt8(ascii: "}"))
        case .identify:
            out.append(contentsOf: #"{"type":"identify","traits":{"#.utf8)
            Self.fields(envelope.event.parameters, into: &out)
            out.append(UInt8(ascii: "}"))
        case .group:
            out.append(contentsOf: #"{"type":"group","groupId":"#.utf8)
            Self.string(envelope.groupID ?? "", into: &out)
            out.append(contentsOf: #","traits":{"#.utf8)
            Self.fields(envelope.event.parameters, into: &out)
            out.append(UInt8(ascii: "}"))
        case .alias:
            // Segment requires the former id; without one, the anonymous id is what
            // the user was known by, as Segment's own libraries send.
            out.append(contentsOf: #"{"type":"alias","previousId":"#.utf8)
            Self.string(envelope.previousID ?? envelope.anonymousID, into: &out)
        }
        out.append(contentsOf: #","messageId":""#.utf8)
        Self.uuid(envelope.messageID, into: &out)
        out.append(contentsOf: #"","timestamp":""#.utf8)
        Self.timestamp(envelope.timestamp, into: &out)
        out.append(UInt8(ascii: "\""))
        // Segment needs one of the two; an empty anonymous id is still sent when both are missing.
        if !envelope.anonymousID.isEmpty || envelope.userID == nil {
            out.append(contentsOf: #","anonymousId":"#.utf8)
            Self.string(envelope.anonymousID, into: &out)
        }
        if let userID = envelope.userID {
            out.append(contentsOf: #","userId":"#.utf8)
            Self.string(userID, into: &out)
        }
        if envelope.context != lastContext {
            lastContext = envelope.context
            contextBytes = Self.context(envelope.context)
        }
        out.append(contentsOf: #","context":"#.utf8)
        out.append(contentsOf: contextBytes)
        out.removeLast()  // the context's closing brace: the session goes inside
        out.append(contentsOf: #","sessionId":"#.utf8)
        out.append(contentsOf: String(envelope.sessionID).utf8)
        if let plan = envelope.event.metadata.plan {
            out.append(contentsOf: #","plan":"#.utf8)
            Self.plan(plan, branch: envelope.context.planBranch, into: &out)
        }
        out.append(contentsOf: "}}".utf8)
    }

    /// `{"name":…,"version":…,"eventVersion":…,"branch":…}`: the plan an event was
    /// generated from, Segment's `context.plan` and the vendors' `anna_plan`.
    package static func plan(_ plan: AnalyticsEvent.PlanReference, branch: String?, into out: inout [UInt8]) {
        out.append(contentsOf: #"{"name":"#.utf8)
        string(plan.name, into: &out)
        out.append(contentsOf: #","version":"#.utf8)
        string(plan.version, into: &out)
        out.append(contentsOf: #","eventVersion":"#.utf8)
        string(plan.eventVersion, into: &out)
        if let branch {
            out.append(contentsOf: #","branch":"#.utf8)
            string(branch, into: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// `"key":value,…` of a properties or traits object, without its braces.
    package static func fields(_ fields: [String: AnalyticsValue], into out: inout [UInt8]) {
        var first = true
        for (key, value) in fields {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            string(key, into: &out)
            out.append(UInt8(ascii: ":"))
            self.value(value, into: &out)
        }
    }

    private static func context(_ context: AnalyticsContext) -> [UInt8] {
        var out: [UInt8] = []
        func object(_ name: String, _ fields: [(String, String?)]) {
            string(name, into: &out)
            out.append(contentsOf: ":{".utf8)
            var first = true
            for (key, value) in fields {
                guard let value else { continue }
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                string(key, into: &out)
                out.append(UInt8(ascii: ":"))
                string(value, into: &out)
            }
            out.append(contentsOf: "},".utf8)
        }
        out.append(UInt8(ascii: "{"))
        object("app", [
            ("name", context.app.name), ("version", context.app.version),
            ("build", context.app.build), ("namespace", context.app.namespace),
        ])
        object("device", [("model", context.device.model), ("manufacturer", context.device.manufacturer)])
        object("os", [("name", context.os.name), ("version", context.os.version)])
        object("library", [("name", context.library.name), ("version", context.library.version)])
        out.append(contentsOf: #""locale":"#.utf8)
        string(context.locale, into: &out)
        out.append(contentsOf: #","timezone":"#.utf8)
        string(context.timezone, into: &out)
        out.append(UInt8(ascii: "}"))
        return out
    }

    package static func value(_ value: AnalyticsValue, into out: inout [UInt8]) {
        switch value {
        case .string(let text): string(text, into: &out)
        case .int(let number): out.append(contentsOf: String(number).utf8)
        case .double(let number):
            // JSON has no infinities or NaN.
            out.append(contentsOf: (number.isFinite ? String(number) : "null").utf8)
        case .bool(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .date(let date):
            out.append(UInt8(ascii: "\""))
            timestamp(date, into: &out)
            out.append(UInt8(ascii: "\""))
        case .url(let url): string(url.absoluteString, into: &out)
        case .uuid(let uuid): string(uuid.uuidString, into: &out)
        case .array(let values):
            out.append(UInt8(ascii: "["))
            for (index, element) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                self.value(element, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let fields):
            // Nested JSON, as Segment's spec sends `products` and `address`.
            out.append(UInt8(ascii: "{"))
            self.fields(fields, into: &out)
            out.append(UInt8(ascii: "}"))
        }
    }

    /// The lowercase 8-4-4-4-12 form, without building a string.
    package static func uuid(_ uuid: UUID, into out: inout [UInt8]) {
        let hex: StaticString = "0123456789abcdef"
        withUnsafeBytes(of: uuid.uuid) { bytes in
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10 { out.append(UInt8(ascii: "-")) }
                out.append(hex.utf8Start[Int(bytes[index] >> 4)])
                out.append(hex.utf8Start[Int(bytes[index] & 0xF)])
            }
        }
    }

    /// A JSON string: quotes, backslashes and control characters escaped, the rest UTF-8.
    package static func string(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            out.append(contentsOf: text.utf8)
            out.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case 0x0A: out.append(contentsOf: #"\n"#.utf8)
            case 0x0D: out.append(contentsOf: #"\r"#.utf8)
            case 0x09: out.append(contentsOf: #"\t"#.utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: #"\u00"#.utf8)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// ISO 8601 in UTC with milliseconds, `2026-01-01T00:00:00.000Z`, without a formatter.
    package static func timestamp(_ date: Date, into out: inout [UInt8]) {
        // Years 1970…9999 keep four digits; a clock that far off is clamped, not trusted.
        let raw = (date.timeIntervalSince1970 * 1000).rounded(.down)
        let milliseconds = raw.isFinite ? Int64(min(max(raw, 0), 253_402_300_799_999)) : 0
        var days = milliseconds / 86_400_000
        var rest = milliseconds % 86_400_000
        if rest < 0 {
            rest += 86_400_000
            days -= 1
        }
        // Howard Hinnant's days-to-civil.
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func digits(_ value: Int64, _ count: Int) {
            var divisor: Int64 = 1
            for _ in 1..<count { divisor *= 10 }
            var value = value
            while divisor > 0 {
                out.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                value %= divisor
                divisor /= 10
            }
        }
        digits(year, 4)
        out.append(UInt8(ascii: "-"))
        digits(month, 2)
        out.append(UInt8(ascii: "-"))
        digits(day, 2)
        out.append(UInt8(ascii: "T"))
        digits(rest / 3_600_000, 2)
        out.append(UInt8(ascii: ":"))
        digits(rest / 60_000 % 60, 2)
        out.append(UInt8(ascii: ":"))
        digits(rest / 1000 % 60, 2)
        out.append(UInt8(ascii: "."))
        digits(rest % 1000, 3)
        out.append(UInt8(ascii: "Z"))
    }
}
