/// Escapes and classes: what follows a `\` or a `[`.
extension RegexParser {
    enum Escape {
        case scalar(Unicode.Scalar)
        case set(RegexCharacterSet)
    }

    /// Reads what follows a `\` at `start`.
    mutating func escape(at start: Int, inClass: Bool) throws(RegexSyntaxError) -> Escape {
        guard let scalar = current else {
            throw RegexSyntaxError("the pattern ends with a lone '\\'; write \\\\ to match a backslash", at: start)
        }
        index += 1
        switch scalar {
        case "d": return .set(RegexCharacterSet(.digit, negated: false))
        case "D": return .set(RegexCharacterSet(.digit, negated: true))
        case "w": return .set(RegexCharacterSet(.word, negated: false))
        case "W": return .set(RegexCharacterSet(.word, negated: true))
        case "s": return .set(RegexCharacterSet(.space, negated: false))
        case "S": return .set(RegexCharacterSet(.space, negated: true))
        case "t": return .scalar("\t")
        case "n": return .scalar("\n")
        case "r": return .scalar("\r")
        case "f": return .scalar("\u{0C}")
        case "a": return .scalar("\u{07}")
        case "e": return .scalar("\u{1B}")
        case "x", "u": return .scalar(try hexEscape(scalar, at: start))
        case "1"..."9":
            throw RegexSyntaxError("backreferences (\\\(scalar)) are not supported; repeat the group's pattern instead", at: start)
        case "0":
            throw RegexSyntaxError("octal escapes (\\0…) are not supported; use \\x{…} instead", at: start)
        case "b" where !inClass, "B", "A", "z", "Z", "G":
            throw RegexSyntaxError("the assertion \\\(scalar) is not supported; use ^ or $, or match the characters themselves", at: start)
        case "p", "P":
            throw RegexSyntaxError("Unicode property classes (\\\(scalar){…}) are not supported; list the characters in a class like [a-z]", at: start)
        case "k", "g":
            throw RegexSyntaxError("backreferences (\\\(scalar)) are not supported; repeat the group's pattern instead", at: start)
        default:
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                throw RegexSyntaxError("unknown escape '\\\(scalar)'; remove the backslash, or escape only punctuation", at: start)
            }
            return .scalar(scalar)
        }
    }

    /// `\xhh`, `\x{h…}` or `\uhhhh`, after the letter.
    private mutating func hexEscape(_ letter: Unicode.Scalar, at start: Int) throws(RegexSyntaxError) -> Unicode.Scalar {
        var value: UInt32 = 0
        var digits = 0
        if letter == "x", current == "{" {
            index += 1
            while let scalar = current, let digit = Self.digitValue(scalar, radix: 16), digits < 8 {
                value = value * 16 + UInt32(digit)
                digits += 1
                index += 1
            }
            guard digits > 0, current == "}" else {
                throw RegexSyntaxError("\\x{…} takes hexadecimal digits and a closing '}', e.g. \\x{E9}", at: start)
            }
            index += 1
        } else {
            let count = letter == "x" ? 2 : 4
            while digits < count, let scalar = current, let digit = Self.digitValue(scalar, radix: 16) {
                value = value * 16 + UInt32(digit)
                digits += 1
                index += 1
            }
            guard digits == count else {
                throw RegexSyntaxError("\\\(letter) takes \(count) hexadecimal digits, e.g. \(letter == "x" ? "\\x41" : "\\u00E9")", at: start)
            }
        }
        guard let scalar = Unicode.Scalar(value) else {
            throw RegexSyntaxError("the escape names no Unicode scalar; use one from 0 to 10FFFF, outside D800–DFFF", at: start)
        }
        return scalar
    }

    /// Reads a class after its `[` at `start`.
    mutating func characterClass(at start: Int) throws(RegexSyntaxError) -> RegexCharacterSet {
        var set = RegexCharacterSet()
        try refusePOSIXLookalike(at: start)
        if current == "^" {
            set.isNegated = true
            index += 1
        }
        var isFirst = true
        while true {
            guard let scalar = current else {
                throw RegexSyntaxError("'[' has no matching ']'; close the class or escape it as \\[", at: start)
            }
            if scalar == "]" {
                if isFirst {
                    throw RegexSyntaxError("the class is empty; to match ']', escape it as \\]", at: start)
                }
                index += 1
                return set
            }
            isFirst = false
            let itemStart = index
            if scalar == "[" {
                throw RegexSyntaxError("nested classes and POSIX classes like [:alpha:] are not supported; escape '[' as \\[", at: itemStart)
            }
            try refuseSetOperator(at: itemStart)
            guard let low = try classItem(into: &set) else { continue }
            // A range `a-z`; a '-' before ']' or at the start is a literal.
            if current == "-", let next = peek(1), next != "]" {
                try refuseSetOperator(at: index)
                if scalars[itemStart] == "&" {
                    throw RegexSyntaxError("'&' starting a range is an operator to ICU (NSRegularExpression); escape it as \\&", at: itemStart)
                }
                index += 1
                let highStart = index
                guard let high = try classItem(into: &set) else {
                    throw RegexSyntaxError("a range cannot end with a class like \\d; escape '-' as \\-", at: highStart)
                }
                guard low.value <= high.value else {
                    throw RegexSyntaxError("the range \(low)-\(high) runs backwards; swap its ends", at: itemStart)
                }
                set.ranges.append(low.value...high.value)
            } else {
                set.ranges.append(low.value...low.value)
            }
        }
    }

    /// One scalar of a class, or `nil` after adding a class escape like `\d` to `set`.
    private mutating func classItem(into set: inout RegexCharacterSet) throws(RegexSyntaxError) -> Unicode.Scalar? {
        guard let scalar = current else { return nil }
        let start = index
        index += 1
        guard scalar == "\\" else { return scalar }
        if current == "b" {
            throw RegexSyntaxError(
                "'\\b' in a class is a backspace to some engines and the letter 'b' to ICU (NSRegularExpression); write \\x08 for a backspace, or b for the letter",
                at: start)
        }
        switch try escape(at: start, inClass: true) {
        case .scalar(let literal): return literal
        case .set(let inner):
            set.classes.append(contentsOf: inner.classes)
            return nil
        }
    }

    /// `[:alpha:]`, `[:^digit:]`…: a POSIX class to ICU (`NSRegularExpression`),
    /// which reads `[:` up to the next `:]` anywhere after it as a property set, but
    /// a class of the characters `:`, `a`, `l`… to Anna. Refused, so a spec means
    /// one thing to every engine.
    private func refusePOSIXLookalike(at start: Int) throws(RegexSyntaxError) {
        guard current == ":" else { return }
        // `[::]` is a colon to both: the name between the colons is not empty.
        var end = index + 3
        while end < scalars.count, !(scalars[end] == "]" && scalars[end - 1] == ":") { end += 1 }
        guard end < scalars.count else { return }
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars[start...end])
        throw RegexSyntaxError(
            "'\(String(text))' is a POSIX class to ICU (NSRegularExpression) but the characters between the brackets to Anna; write the characters you mean, e.g. [a-zA-Z] for letters or [0-9] for digits, or escape the first colon, [\\:…], to match the characters",
            at: start)
    }

    /// `&&` and `--` in a class: intersection and difference to ICU
    /// (`NSRegularExpression`), two characters (or a range) to Anna.
    private func refuseSetOperator(at position: Int) throws(RegexSyntaxError) {
        guard position + 1 < scalars.count, scalars[position + 1] == scalars[position] else { return }
        switch scalars[position] {
        case "&":
            throw RegexSyntaxError(
                "'&&' in a class intersects sets to ICU (NSRegularExpression) but is two '&' to Anna; write one '&', or escape it as \\&",
                at: position)
        case "-":
            throw RegexSyntaxError(
                "'--' in a class subtracts sets to ICU (NSRegularExpression) but is a range or a '-' to Anna; escape the '-' you mean as \\-",
                at: position)
        default:
            return
        }
    }

    static func digitValue(_ scalar: Unicode.Scalar, radix: Int) -> Int? {
        guard scalar.isASCII, let value = Int(String(scalar), radix: radix) else { return nil }
        return value
    }
}
