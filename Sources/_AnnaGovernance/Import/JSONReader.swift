import _AnnaGeneratorCore
/// Reads JSON (RFC 8259) into ``JSONNode``s that know their line and column.
///
/// Malformed input is a located ``Diagnostic``, never a crash: nesting is capped so a
/// hostile file cannot exhaust the stack.
package struct JSONReader {
    /// Deeper nesting than any tracking plan needs, and far from the stack's limit.
    package static let maxDepth = 256

    private let bytes: [UInt8]
    private let file: String
    private var offset = 0
    private var line = 1
    private var column = 1

    private init(_ bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
    }

    /// Parses a whole document.
    /// - Parameters:
    ///   - bytes: The file's contents, UTF-8 (a leading byte order mark is skipped).
    ///   - file: The path shown in diagnostics.
    /// - Returns: The document's value.
    /// - Throws: ``SpecError`` with one located error when the bytes are not JSON.
    package static func parse(_ bytes: [UInt8], file: String) throws(SpecError) -> JSONNode {
        var reader = JSONReader(bytes, file: file)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.offset = 3 }
        do throws(Failure) {
            reader.skipSpace()
            let value = try reader.value(depth: 0)
            reader.skipSpace()
            if reader.offset < bytes.count {
                throw reader.error("unexpected text after the JSON value; a plan file holds one object")
            }
            return value
        } catch {
            throw SpecError(diagnostics: [error.diagnostic])
        }
    }

    private var location: SourceLocation { SourceLocation(file: file, line: line, column: column) }

    /// A syntax error, carried out of the recursion.
    private struct Failure: Error {
        var diagnostic: Diagnostic
    }

    private func error(_ message: String, at place: SourceLocation? = nil) -> Failure {
        Failure(diagnostic: .error("\(message) (the file is not valid JSON)", at: place ?? location))
    }

    private var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    private mutating func advance() {
        let byte = bytes[offset]
        offset += 1
        if byte == 0x0A {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 {
            // Columns count characters: continuation bytes of UTF-8 do not move them.
            column += 1
        }
    }

    private mutating func skipSpace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { advance() }
    }

    private mutating func value(depth: Int) throws(Failure) -> JSONNode {
        guard depth < Self.maxDepth else { throw error("nesting deeper than \(Self.maxDepth) levels") }
        let start = location
        guard let byte = current else { throw error("the file ends where a value should be") }
        switch byte {
        case UInt8(ascii: "{"): return JSONNode(.object(try object(depth: depth)), at: start)
        case UInt8(ascii: "["): return JSONNode(.array(try array(depth: depth)), at: start)
        case UInt8(ascii: "\""): return JSONNode(.string(try string()), at: start)
        case UInt8(ascii: "t"): try literal("true"); return JSONNode(.bool(true), at: start)
        case UInt8(ascii: "f"): try literal("false"); return JSONNode(.bool(false), at: start)
        case UInt8(ascii: "n"): try literal("null"); return JSONNode(.null, at: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw error("unexpected character '\(Self.describe(byte))' where a value should be")
        }
    }

    private mutating func literal(_ word: String) throws(Failure) {
        let start = location
        for expected in word.utf8 {
            guard current == expected else { throw error("unknown word; JSON has true, false and null, and strings in double quotes", at: start) }
            advance()
        }
    }

    private mutating func object(depth: Int) throws(Failure) -> [JSONMember] {
        advance()
        skipSpace()
        var members: [JSONMember] = []
        if current == UInt8(ascii: "}") { advance(); return members }
        while true {
            let keyLocation = location
            guard current == UInt8(ascii: "\"") else { throw error("expected a key in double quotes") }
            let key = try string()
            skipSpace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':' after the key \"\(key)\"") }
            advance()
            skipSpace()
            members.append(JSONMember(key: key, keyLocation: keyLocation, value: try value(depth: depth + 1)))
            skipSpace()
            switch current {
            case UInt8(ascii: ","): advance(); skipSpace()
            case UInt8(ascii: "}"): advance(); return members
            case nil: throw error("the file ends inside an object; close it with '}'")
            default: throw error("expected ',' or '}' after a member of an object")
            }
        }
    }

    private mutating func array(depth: Int) throws(Failure) -> [JSONNode] {
        advance()
        skipSpace()
        var elements: [JSONNode] = []
        if current == UInt8(ascii: "]") { advance(); return elements }
        while true {
            elements.append(try value(depth: depth + 1))
            skipSpace()
            switch current {
            case UInt8(ascii: ","): advance(); skipSpace()
            case UInt8(ascii: "]"): advance(); return elements
            case nil: throw error("the file ends inside an array; close it with ']'")
            default: throw error("expected ',' or ']' after an element of an array")
            }
        }
    }

    private mutating func number() throws(Failure) -> JSONNode {
        let start = location
        let first = offset
        if current == UInt8(ascii: "-") { advance() }
        guard let lead = current, lead.isASCIIDigit else { throw error("a number needs digits after '-'") }
        advance()
        if lead != UInt8(ascii: "0") { while let byte = current, byte.isASCIIDigit { advance() } }
        if current == UInt8(ascii: ".") {
            advance()
            guard let byte = current, byte.isASCIIDigit else { throw error("a number needs digits after '.'") }
            while let byte = current, byte.isASCIIDigit { advance() }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            advance()
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { advance() }
            guard let byte = current, byte.isASCIIDigit else { throw error("a number needs digits in its exponent") }
            while let byte = current, byte.isASCIIDigit { advance() }
        }
        let text = String(decoding: bytes[first..<offset], as: UTF8.self)
        guard let value = Double(text) else { throw error("the number \(text) cannot be read") }
        return JSONNode(.number(value, text: text), at: start)
    }

    private mutating func string() throws(Failure) -> String {
        advance()
        var scalars = String.UnicodeScalarView()
        var run: [UInt8] = []
        func flush() throws(Failure) {
            guard !run.isEmpty else { return }
            guard let text = String(validating: run, as: UTF8.self) else { throw error("a string holds bytes that are not UTF-8") }
            scalars.append(contentsOf: text.unicodeScalars)
            run.removeAll(keepingCapacity: true)
        }
        while true {
            guard let byte = current else { throw error("the file ends inside a string; close it with '\"'") }
            switch byte {
            case UInt8(ascii: "\""):
                try flush()
                advance()
                return String(scalars)
            case UInt8(ascii: "\\"):
                try flush()
                let start = location
                advance()
                scalars.append(try escape(startingAt: start))
            case 0x00..<0x20:
                throw error("a control character inside a string; write it as an escape such as \\n")
            default:
                run.append(byte)
                advance()
            }
        }
    }

    private mutating func escape(startingAt start: SourceLocation) throws(Failure) -> Unicode.Scalar {
        guard let byte = current else { throw error("the file ends inside an escape") }
        advance()
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let unit = try hexUnit()
            if (0xD800..<0xDC00).contains(unit) {
                guard current == UInt8(ascii: "\\") else { throw error("a \\u escape of a high surrogate must be followed by its low surrogate", at: start) }
                advance()
                guard current == UInt8(ascii: "u") else { throw error("a \\u escape of a high surrogate must be followed by its low surrogate", at: start) }
                advance()
                let low = try hexUnit()
                guard (0xDC00..<0xE000).contains(low) else { throw error("a \\u escape of a high surrogate must be followed by its low surrogate", at: start) }
                let value = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                if let scalar = Unicode.Scalar(value) { return scalar }
            } else if let scalar = Unicode.Scalar(unit) {
                return scalar
            }
            throw error("a \\u escape names a lone surrogate, which is not a character", at: start)
        default:
            throw error("unknown escape '\\\(Self.describe(byte))'; JSON has \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX", at: start)
        }
    }

    private mutating func hexUnit() throws(Failure) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = Self.hexDigit(byte) else { throw error("\\u takes four hexadecimal digits") }
            value = value << 4 | digit
            advance()
        }
        return value
    }

    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private static func describe(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : "\\u{\(String(byte, radix: 16))}"
    }
}
