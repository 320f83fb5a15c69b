/// Parses the regular-expression syntax tracking specs use into a ``RegexNode`` tree.
///
/// Supported: literals; `.`; the escapes `\d \w \s \D \W \S`, `\t \n \r \f \a \e`,
/// `\xhh`, `\x{h…}`, `\uhhhh` and any escaped punctuation (`\.`, `\\`, `\(`…);
/// classes `[a-z0-9_]` and `[^…]` holding ranges, single scalars and those escapes;
/// the anchors `^` and `$`; groups `( )`, `(?: )` and `(?<name> )`; alternation `|`;
/// the quantifiers `* + ? {m} {m,} {m,n}` (at most ``maximumCount``) and their lazy
/// forms, which match the same strings. Everything else (backreferences, lookaround,
/// atomic groups, possessive quantifiers, flags, word boundaries, Unicode properties)
/// is an error at its offset, as is nesting deeper than ``maximumDepth``, and so is
/// what ICU (`NSRegularExpression`) reads otherwise: `[:alpha:]` (a POSIX class to
/// ICU), `&&` and `--` in a class (set operations), `[\b]` (`b` to ICU) and
/// `(?P<name>…)`.
///
/// A value type; each `parse` call owns its own state.
package struct RegexParser {
    /// The largest count a `{m,n}` quantifier may use.
    package static let maximumCount = 1000
    /// The deepest nesting of groups accepted; bounds recursion.
    package static let maximumDepth = 64

    let scalars: [Unicode.Scalar]
    /// The next scalar to read.
    var index = 0

    private init(_ pattern: String) {
        scalars = Array(pattern.unicodeScalars)
    }

    /// Parses a pattern.
    /// - Parameter pattern: The regular expression.
    /// - Returns: Its syntax tree.
    /// - Throws: ``RegexSyntaxError`` at the first problem.
    package static func parse(_ pattern: String) throws(RegexSyntaxError) -> RegexNode {
        var parser = RegexParser(pattern)
        let node = try parser.alternation(depth: 0)
        if parser.index < parser.scalars.count {
            // Only an unmatched `)` stops the top level early.
            throw RegexSyntaxError("')' has no matching '('; remove it or escape it as \\)", at: parser.index)
        }
        return node
    }

    var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    func peek(_ distance: Int) -> Unicode.Scalar? {
        index + distance < scalars.count ? scalars[index + distance] : nil
    }

    private mutating func alternation(depth: Int) throws(RegexSyntaxError) -> RegexNode {
        let start = index
        var branches = [try concatenation(depth: depth)]
        while current == "|" {
            index += 1
            branches.append(try concatenation(depth: depth))
        }
        return branches.count == 1 ? branches[0] : RegexNode(.alternation(branches), range: start..<index)
    }

    private mutating func concatenation(depth: Int) throws(RegexSyntaxError) -> RegexNode {
        let start = index
        var items: [RegexNode] = []
        while let scalar = current, scalar != "|", scalar != ")" {
            items.append(try quantified(depth: depth))
        }
        switch items.count {
        case 0: return RegexNode(.empty, range: start..<index)
        case 1: return items[0]
        default: return RegexNode(.concatenation(items), range: start..<index)
        }
    }

    private mutating func quantified(depth: Int) throws(RegexSyntaxError) -> RegexNode {
        let start = index
        let atom = try self.atom(depth: depth)
        guard let bounds = try quantifier() else { return atom }
        switch atom.kind {
        case .start, .end:
            throw RegexSyntaxError("an anchor cannot be repeated; remove the quantifier after '\(scalars[start])'", at: start)
        default: break
        }
        if current == "?" {
            index += 1  // Lazy: the same strings match, and only match or no match matters.
        } else if current == "+" {
            throw RegexSyntaxError("possessive quantifiers (like a*+) are not supported; remove the second '+'", at: index)
        }
        if let scalar = current, scalar == "*" || scalar == "+" || scalar == "?" || scalar == "{" {
            throw RegexSyntaxError("a quantifier cannot follow another; group the first, e.g. (a{2}){3}", at: index)
        }
        return RegexNode(.repetition(atom, min: bounds.min, max: bounds.max), range: start..<index)
    }

    /// Reads `* + ? {m} {m,} {m,n}`, or returns `nil` if none follows.
    private mutating func quantifier() throws(RegexSyntaxError) -> (min: Int, max: Int?)? {
        switch current {
        case "*": index += 1; return (0, nil)
        case "+": index += 1; return (1, nil)
        case "?": index += 1; return (0, 1)
        case "{":
            let start = index
            index += 1
            guard let min = number() else {
                throw RegexSyntaxError("'{' starts a repetition like {2} or {2,5}; to match a brace, escape it as \\{", at: start)
            }
            var max: Int? = min
            if current == "," {
                index += 1
                max = current == "}" ? nil : number()
                if max == nil, current != "}" {
                    throw RegexSyntaxError("'{' starts a repetition like {2} or {2,5}; to match a brace, escape it as \\{", at: start)
                }
            }
            guard current == "}" else {
                throw RegexSyntaxError("'{' starts a repetition like {2} or {2,5}; to match a brace, escape it as \\{", at: start)
            }
            index += 1
            if min > Self.maximumCount || (max ?? 0) > Self.maximumCount {
                throw RegexSyntaxError("repetition counts above \(Self.maximumCount) are not supported; use a smaller count or maxLength", at: start)
            }
            if let max, max < min {
                throw RegexSyntaxError("the repetition {\(min),\(max)} has its larger count first; swap them", at: start)
            }
            return (min, max)
        default:
            return nil
        }
    }

    /// Decimal digits, capped so that a long run cannot overflow.
    private mutating func number() -> Int? {
        var value: Int?
        while let scalar = current, let digit = Self.digitValue(scalar, radix: 10) {
            value = Swift.min((value ?? 0) * 10 + digit, 1_000_000)
            index += 1
        }
        return value
    }

    private mutating func atom(depth: Int) throws(RegexSyntaxError) -> RegexNode {
        let start = index
        guard let scalar = current else { return RegexNode(.empty, range: start..<index) }
        index += 1
        switch scalar {
        case "(": return try group(at: start, depth: depth)
        case "[": return RegexNode(.set(try characterClass(at: start)), range: start..<index)
        case ".": return RegexNode(.set(.dot), range: start..<index)
        case "^": return RegexNode(.start, range: start..<index)
        case "$": return RegexNode(.end, range: start..<index)
        case "\\":
            switch try escape(at: start, inClass: false) {
            case .scalar(let literal): return RegexNode(.literal(literal), range: start..<index)
            case .set(let set): return RegexNode(.set(set), range: start..<index)
            }
        case "*", "+", "?":
            throw RegexSyntaxError("'\(scalar)' has nothing to repeat; escape it as \\\(scalar) to match it", at: start)
        case "{", "}":
            // ICU rejects braces outside a repetition too, so specs stay portable.
            throw RegexSyntaxError("'\(scalar)' outside a repetition like {2,5} must be escaped; write \\\(scalar) to match it", at: start)
        default:
            return RegexNode(.literal(scalar), range: start..<index)
        }
    }

    private mutating func group(at start: Int, depth: Int) throws(RegexSyntaxError) -> RegexNode {
        guard depth < Self.maximumDepth else {
            throw RegexSyntaxError("groups nest deeper than \(Self.maximumDepth) levels; simplify the pattern", at: start)
        }
        if current == "?" {
            index += 1
            switch (current, peek(1)) {
            case (":", _): index += 1
            case ("=", _), ("!", _):
                throw RegexSyntaxError("lookahead ((?=…) and (?!…)) is not supported; match the text itself, or check it in code", at: start)
            case ("<", "="), ("<", "!"):
                throw RegexSyntaxError("lookbehind ((?<=…) and (?<!…)) is not supported; match the text itself, or check it in code", at: start)
            case ("P", "<"):
                throw RegexSyntaxError("'(?P<name>…)' is not a group to ICU (NSRegularExpression); write (?<name>…)", at: start)
            case ("<", _):
                // A named group: matches as a plain group.
                guard let close = scalars[index...].firstIndex(of: ">") else {
                    throw RegexSyntaxError("the group name has no closing '>'", at: start)
                }
                index = close + 1
            case (">", _):
                throw RegexSyntaxError("atomic groups ((?>…)) are not supported; use a plain group", at: start)
            default:
                throw RegexSyntaxError("'(?' starts a group option, which is not supported; use (…) or (?:…)", at: start)
            }
        }
        let body = try alternation(depth: depth + 1)
        guard current == ")" else {
            throw RegexSyntaxError("'(' has no matching ')'; close the group or escape it as \\(", at: start)
        }
        index += 1
        return body
    }
}
