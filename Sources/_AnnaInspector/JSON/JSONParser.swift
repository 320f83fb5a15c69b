/// Why a body is not JSON, with the byte offset where reading stopped.
package struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    package var message: String
    package var offset: Int

    package var description: String { "\(message) at byte \(offset)" }
}

/// A strict JSON reader (RFC 8259) over bytes, bounded in nesting depth so that a
/// hostile body cannot exhaust the stack; everything else is bounded by the
/// body's size, which the server limits.
package struct JSONParser {
    /// The deepest nesting of arrays and objects read; deeper is an error.
    package static let maximumDepth = 64

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    /// The top-level key whose array's elements have their byte ranges recorded.
    private var recordedKey: String?
    private var recordsNextArray = false
    private var elementRanges: [Range<Int>] = []

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Parses one JSON document, with only whitespace around it.
    /// - Throws: ``JSONSyntaxError`` where the bytes stop being JSON.
    package static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes)
        parser.skipWhitespace()
        let value = try parser.value()
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.error("unexpected text after the JSON value") }
        return value
    }

    /// Parses one JSON document and returns, for an object with an array at `key`
    /// (`{"batch": [...]}`), where each element of that array is in the bytes, so
    /// that each can be kept as it was sent.
    /// - Throws: ``JSONSyntaxError`` where the bytes stop being JSON.
    package static func parse(_ bytes: [UInt8], recordingElementsOf key: String) throws(JSONSyntaxError) -> (value: JSONValue, elements: [Range<Int>]) {
        var parser = JSONParser(bytes)
        parser.recordedKey = key
        parser.skipWhitespace()
        let value = try parser.value()
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.error("unexpected text after the JSON value") }
        return (value, parser.elementRanges)
    }

    private func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(message: message, offset: index)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func value() throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of the body") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw error("unexpected character '\(Self.shown(bytes[index]))'")
        }
    }

    private static func shown(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16)
    }

    private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error("unexpected end of the body") }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
            throw error("unexpected character '\(Self.shown(bytes[index + offset]))'")
        }
        index += count
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > Self.maximumDepth { throw error("nested deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func object() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        index += 1
        var fields: [(String, JSONValue)] = []
        // Where each key is, once an object has enough of them for a linear search to cost.
        var positions: [String: Int]?
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(fields)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a key in quotes") }
            let key = try string()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':' after a key") }
            index += 1
            skipWhitespace()
            recordsNextArray = depth == 1 && key == recordedKey && index < bytes.count && bytes[index] == UInt8(ascii: "[")
            let parsed = try value()
            // A key written twice keeps its first place and its last value, as
            // `JSON.parse` and Go's `encoding/json` read it.
            if positions != nil {
                if let at = positions![key] {
                    fields[at].1 = parsed
                } else {
                    positions![key] = fields.count
                    fields.append((key, parsed))
                }
            } else if let at = fields.firstIndex(where: { $0.0 == key }) {
                fields[at].1 = parsed
            } else {
                fields.append((key, parsed))
                if fields.count == 16 { positions = Dictionary(uniqueKeysWithValues: fields.enumerated().map { ($1.0, $0) }) }
            }
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of the body") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "}") else { throw error("expected ',' or '}' in an object") }
            index += 1
            depth -= 1
            return .object(fields)
        }
    }

    private mutating func array() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        index += 1
        let records = recordsNextArray
        recordsNextArray = false
        if records {
            // The last array at the key, the one the object keeps, is the one recorded.
            elementRanges = []
        }
        var values: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(values)
        }
        while true {
            skipWhitespace()
            let start = index
            values.append(try value())
            if records { elementRanges.append(start..<index) }
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of the body") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "]") else { throw error("expected ',' or ']' in an array") }
            index += 1
            depth -= 1
            return .array(values)
        }
    }

    private mutating func string() throws(JSONSyntaxError) -> String {
        index += 1
        let start = index
        // The common case: no escape, valid UTF-8, read in one go.
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\"), bytes[index] >= 0x20 {
            index += 1
        }
        guard index < bytes.count else { throw error("unterminated string") }
        if bytes[index] == UInt8(ascii: "\"") {
            let text = try utf8(bytes[start..<index], at: start)
            index += 1
            return text
        }
        var scalars: [UInt8] = Array(bytes[start..<index])
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return try utf8(scalars[...], at: start)
            }
            if byte < 0x20 { throw error("control character in a string; escape it") }
            guard byte == UInt8(ascii: "\\") else {
                scalars.append(byte)
                index += 1
                continue
            }
            index += 1
            guard index < bytes.count else { throw error("unterminated string") }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escape)
            case UInt8(ascii: "b"): scalars.append(0x08)
            case UInt8(ascii: "f"): scalars.append(0x0C)
            case UInt8(ascii: "n"): scalars.append(0x0A)
            case UInt8(ascii: "r"): scalars.append(0x0D)
            case UInt8(ascii: "t"): scalars.append(0x09)
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800...0xDBFF).contains(code) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        throw error("a lone UTF-16 surrogate in a \\u escape")
                    }
                    index += 2
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw error("a lone UTF-16 surrogate in a \\u escape") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(code) {
                    throw error("a lone UTF-16 surrogate in a \\u escape")
                }
                guard let scalar = Unicode.Scalar(code) else { throw error("an invalid \\u escape") }
                scalars.append(contentsOf: String(Character(scalar)).utf8)
            default:
                throw error("an invalid escape '\\\(Self.shown(escape))'")
            }
        }
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("unexpected end of the body") }
        var code: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("an invalid \\u escape")
            }
            code = code << 4 | UInt32(digit)
            index += 1
        }
        return code
    }

    private func utf8(_ slice: ArraySlice<UInt8>, at offset: Int) throws(JSONSyntaxError) -> String {
        guard let text = String(validating: slice, as: UTF8.self) else {
            throw JSONSyntaxError(message: "a string that is not UTF-8", offset: offset)
        }
        return text
    }

    private mutating func number() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, Self.isDigit(bytes[index]) else { throw error("a number needs a digit") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, Self.isDigit(bytes[index]) else { throw error("a number needs a digit after '.'") }
            while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, Self.isDigit(bytes[index]) else { throw error("a number needs a digit in its exponent") }
            while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let integer = Int(text) { return .int(integer) }
        guard let double = Double(text), double.isFinite else { throw JSONSyntaxError(message: "a number out of range", offset: start) }
        return .double(double)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
