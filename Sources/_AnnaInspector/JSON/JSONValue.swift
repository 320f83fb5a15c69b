/// A JSON value as a collector receives it: objects keep their keys' order, numbers
/// keep whether they were written as integers, so `3` and `3.0` can be told apart
/// for an `int` parameter.
package enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// A number written without a fraction or exponent that fits in `Int`.
    case int(Int)
    /// Any other number.
    case double(Double)
    case string(String)
    case array([JSONValue])
    /// Key-value pairs in the order they were written.
    case object([(String, JSONValue)])

    /// The value of `key` in an object; `nil` otherwise. ``JSONParser`` keeps one
    /// value per key, the last written, as `JSON.parse` and Go's `encoding/json` do.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let fields) = self else { return nil }
        for (name, value) in fields where name == key { return value }
        return nil
    }

    /// The string, if this is one.
    package var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// What JSON calls this kind of value: `string`, `integer`, `number`, `object`…
    package var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .int: "integer"
        case .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    package func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let flag): hasher.combine(flag)
        case .int(let number): hasher.combine(number)
        case .double(let number): hasher.combine(number)
        case .string(let text): hasher.combine(text)
        case .array(let values): hasher.combine(values)
        case .object(let fields):
            for (key, value) in fields {
                hasher.combine(key)
                hasher.combine(value)
            }
        }
    }
}

extension JSONValue {
    /// Compact JSON text, at most `limit` UTF-8 bytes (cut with `…`), for findings:
    /// `<`, `>` and `&` as they arrived (whatever shows a finding writes it as text).
    package func shortText(limit: Int = 80) -> String {
        var out: [UInt8] = []
        write(into: &out, limit: limit + 1, escapingMarkup: false)
        if out.count > limit { return String(decoding: out.prefix(limit), as: UTF8.self) + "…" }
        return String(decoding: out, as: UTF8.self)
    }

    /// Compact JSON, stopping once `limit` bytes are written.
    /// - Parameter escapingMarkup: Whether `<`, `>` and `&` are written as `\u003c`…
    package func write(into out: inout [UInt8], limit: Int = .max, escapingMarkup: Bool = true) {
        guard out.count < limit else { return }
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .int(let number): out.append(contentsOf: String(number).utf8)
        case .double(let number): out.append(contentsOf: (number.isFinite ? String(number) : "null").utf8)
        case .string(let text): JSONValue.writeString(text, into: &out, escapingMarkup: escapingMarkup)
        case .array(let values):
            out.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if out.count >= limit { return }
                if index > 0 { out.append(UInt8(ascii: ",")) }
                value.write(into: &out, limit: limit, escapingMarkup: escapingMarkup)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let fields):
            out.append(UInt8(ascii: "{"))
            for (index, (key, value)) in fields.enumerated() {
                if out.count >= limit { return }
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.writeString(key, into: &out, escapingMarkup: escapingMarkup)
                out.append(UInt8(ascii: ":"))
                value.write(into: &out, limit: limit, escapingMarkup: escapingMarkup)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// A JSON string literal; `<`, `>` and `&` escaped too unless `escapingMarkup` is
    /// `false`, so no text can close a `<script>` it might be written into.
    package static func writeString(_ text: String, into out: inout [UInt8], escapingMarkup: Bool = true) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case 0x0A: out.append(contentsOf: #"\n"#.utf8)
            case 0x0D: out.append(contentsOf: #"\r"#.utf8)
            case 0x09: out.append(contentsOf: #"\t"#.utf8)
            case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"):
                guard escapingMarkup else {
                    out.append(byte)
                    continue
                }
                fallthrough
            case 0..<0x20:
                out.append(contentsOf: #"\u00"#.utf8)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// ``writeString(_:into:escapingMarkup:)`` as a `String`, for messages: `<`, `>`
    /// and `&` as they are.
    package static func quoted(_ text: String) -> String {
        var out: [UInt8] = []
        writeString(text, into: &out, escapingMarkup: false)
        return String(decoding: out, as: UTF8.self)
    }
}
