/// A scalar's value under the YAML 1.2 core schema.
///
/// The core schema, unlike YAML 1.1, reads `yes`, `no`, `on` and `off` as strings, so
/// an enum case named `no` stays a string.
package enum ScalarValue: Sendable, Hashable {
    /// `null`, `~` or nothing.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A decimal, octal (`0o`) or hexadecimal (`0x`) integer.
    case int(Int)
    /// A floating-point number, `.inf` or `.nan`.
    case double(Double)
    /// Anything else, and every quoted scalar.
    case string(String)
}

extension ScalarValue {
    /// A plain (unquoted) scalar's value under the YAML 1.2 core schema: what the
    /// generator's parser and the runtime's reader of `tasks:` both use.
    package static func resolvePlain(_ text: String) -> ScalarValue {
        // Most plain scalars are words; only these first characters can start a
        // null, a boolean, a number, an infinity or a not-a-number.
        guard let first = text.utf8.first else { return .null }
        switch first {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "~"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "+"),
             UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "t"), UInt8(ascii: "T"), UInt8(ascii: "f"), UInt8(ascii: "F"):
            break
        default:
            return .string(text)
        }
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .double(.infinity)
        case "-.inf", "-.Inf", "-.INF": return .double(-.infinity)
        case ".nan", ".NaN", ".NAN": return .double(.nan)
        default: break
        }
        if let value = resolveInteger(text) { return .int(value) }
        if isCoreFloat(text), let value = Double(text) { return .double(value) }
        return .string(text)
    }

    private static func resolveInteger(_ text: String) -> Int? {
        var prefix = text.utf8.makeIterator()
        if text.utf8.count > 2, prefix.next() == UInt8(ascii: "0") {
            let second = prefix.next()
            if second == UInt8(ascii: "o") { return Int(text.dropFirst(2), radix: 8) }
            if second == UInt8(ascii: "x") { return Int(text.dropFirst(2), radix: 16) }
        }
        var digits = Substring(text)
        if digits.first == "-" || digits.first == "+" { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        // Too large for Int: leave it to the float rule, which reports it as a number.
        return Int(text.first == "+" ? String(text.dropFirst()) : text)
    }

    /// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`
    private static func isCoreFloat(_ text: String) -> Bool {
        var bytes = Substring(text).utf8[...]
        func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }
        if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        let integerDigits = bytes.prefix(while: isDigit)
        bytes = bytes.dropFirst(integerDigits.count)
        var fractionDigits = 0
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            let fraction = bytes.prefix(while: isDigit)
            fractionDigits = fraction.count
            bytes = bytes.dropFirst(fraction.count)
            if integerDigits.isEmpty && fractionDigits == 0 { return false }
        } else if integerDigits.isEmpty {
            return false
        }
        if let first = bytes.first, first == UInt8(ascii: "e") || first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
            let exponent = bytes.prefix(while: isDigit)
            if exponent.isEmpty { return false }
            bytes = bytes.dropFirst(exponent.count)
        }
        return bytes.isEmpty
    }
}
