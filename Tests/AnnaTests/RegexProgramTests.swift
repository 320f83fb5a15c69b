import AnnaRules
import Foundation
import Testing
@testable import Anna

/// Anna's regular-expression engine against ICU's (`NSRegularExpression`), which
/// constraints used before, and on inputs that make backtracking engines stall.
@Suite struct RegexProgramTests {
    /// SplitMix64: a fixed seed gives the same cases on every run and platform.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func icuMatches(_ pattern: String, _ text: String) throws -> Bool {
        let regex = try NSRegularExpression(pattern: pattern)
        return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// A random pattern over a small alphabet, so that random inputs often match.
    static func randomPattern(depth: Int, using random: inout SeededGenerator) -> String {
        let atoms = ["a", "b", "1", "_", " ", "-", ".", "\\d", "\\w", "\\s", "\\D", "\\W", "[ab]", "[^a]", "[a-b1]", "[\\d_]", "\\-", "\\."]
        let quantifiers = ["", "", "", "*", "+", "?", "{2}", "{1,2}", "{0,}", "*?", "+?", "{0,1}"]
        var pieces: [String] = []
        if Int.random(in: 0..<5, using: &random) == 0 { pieces.append("^") }
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            var atom: String
            if depth > 0, Int.random(in: 0..<4, using: &random) == 0 {
                let branches = (0..<Int.random(in: 1...3, using: &random)).map { _ in randomPattern(depth: depth - 1, using: &random) }
                atom = (Bool.random(using: &random) ? "(" : "(?:") + branches.joined(separator: "|") + ")"
            } else {
                atom = atoms.randomElement(using: &random) ?? "a"
            }
            atom += quantifiers.randomElement(using: &random) ?? ""
            pieces.append(atom)
        }
        if Int.random(in: 0..<5, using: &random) == 0 { pieces.append("$") }
        return pieces.joined()
    }

    @Test func agreesWithNSRegularExpressionOnGeneratedCases() throws {
        var random = SeededGenerator(state: 20_261_123)
        let alphabet: [Character] = ["a", "b", "1", "_", " ", "-", ".", "\n"]
        var compared = 0
        var patterns = 0
        for _ in 0..<500 {
            let pattern = Self.randomPattern(depth: 2, using: &random)
            let syntax = try RegexParser.parse(pattern)
            let program = try RegexProgram(syntax)
            // ICU gives up early on some repeated groups that can match the empty
            // string (it misses matches of (\W*)+?\W); specs cannot have those.
            guard RegexHazard.find(in: syntax) == nil else { continue }
            patterns += 1
            for _ in 0..<8 {
                let text = String((0..<Int.random(in: 0...8, using: &random)).map { _ in alphabet.randomElement(using: &random) ?? "a" })
                let expected = try Self.icuMatches(pattern, text)
                #expect(program.matches(text) == expected, "/\(pattern)/ on \(text.debugDescription)")
                compared += 1
            }
        }
        #expect(patterns > 200)
        #expect(compared == patterns * 8)
    }

    @Test(arguments: [
        ("^abc$", "abc", true), ("^abc$", "abc\n", true), ("^abc$", "abc\r\n", true), ("^abc$", "abc\n\n", false),
        ("abc", "xxabcxx", true), ("^b", "ab", false), ("a.c", "a\nc", false), ("a.c", "a\u{E9}c", true),
        ("^\\d+$", "\u{661}\u{662}", true), ("^\\w+$", "caf\u{E9}", true), ("^\\s$", "\u{A0}", true), ("^\\s$", "\u{0B}", true), ("^\\s$", "\u{85}", true), ("^\\s$", "\u{1C}", false),
        ("^[^a]$", "\n", true), ("^\\x41\\u00E9\\x{1F600}$", "A\u{E9}\u{1F600}", true), ("^[\\]\\-]+$", "]-]", true),
        ("^(?<year>\\d{4})-\\d{2}$", "2026-11", true), ("^$", "", true), ("a{0}b", "b", true),
        ("^\u{1F600}.$", "\u{1F600}\u{1F601}", true), ("^(a|b)*?c$", "ababc", true), ("[a-c]{2,3}", "ab", true),
    ])
    func matchesLikeNSRegularExpression(pattern: String, text: String, expected: Bool) throws {
        #expect(try Self.icuMatches(pattern, text) == expected, "the table itself is ICU's answer")
        #expect(try RegexProgram(pattern).matches(text) == expected)
    }

    @Test func classesAgreeWithICUAcrossUnicode() throws {
        let classes = ["\\d", "\\w", "\\s", ".", "\\D", "\\W", "\\S"]
        let regexes = try classes.map { try NSRegularExpression(pattern: "^\($0)$") }
        let programs = try classes.map { try RegexProgram("^\($0)$") }
        var checked = 0
        for value in UInt32(0)..<0x3100 {
            // ICU's Unicode tables can be older than the standard library's.
            guard let scalar = Unicode.Scalar(value), let age = scalar.properties.age, age.major < 15 else { continue }
            let text = String(Character(scalar))
            guard text.unicodeScalars.count == 1 else { continue }
            for (regex, (name, program)) in zip(regexes, zip(classes, programs)) {
                let icu = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
                #expect(program.matches(text) == icu, "\(name) on U+\(String(value, radix: 16))")
                checked += 1
            }
        }
        #expect(checked > 10_000)
    }

    /// Each answer is ICU's too; ICU itself would take years on these inputs.
    @Test(arguments: [
        ("^(a+)+$", String(repeating: "a", count: 10_000) + "!", false),
        ("^(a+)+$", String(repeating: "a", count: 10_000), true),
        ("(a|aa)+$", String(repeating: "a", count: 10_000) + "!", false),
        ("(a|aa)+$", "!" + String(repeating: "a", count: 10_000), true),
        ("(.*a){20}", String(repeating: "a", count: 19) + String(repeating: "b", count: 10_000), false),
        ("(.*a){20}", String(repeating: "ab", count: 5_000), true),
        ("^(\\w|\\d)+$", String(repeating: "1", count: 10_000) + "!", false),
        ("^(a*)*$", String(repeating: "a", count: 10_000) + "b", false),
    ])
    func catastrophicPatternsFinish(pattern: String, text: String, expected: Bool) throws {
        #expect(try RegexProgram(pattern).matches(text) == expected)
    }

    @Test(arguments: [
        ("(a)\\1", "backreferences", 3), ("(?=a)", "lookahead", 0), ("(?<!a)b", "lookbehind", 0),
        ("a*+", "possessive", 2), ("\\p{L}", "Unicode property", 0), ("[a-z", "'[' has no matching ']'", 0),
        ("a)", "')' has no matching '('", 1), ("(a", "'(' has no matching ')'", 0), ("*a", "nothing to repeat", 0),
        ("a{1001}", "above 1000", 1), ("a{3,2}", "swap", 1), ("\\", "lone", 0), ("[z-a]", "backwards", 1),
        ("\\bword", "assertion", 0), ("(?i)a", "group option", 0), ("\\q", "unknown escape", 0), ("{a", "must be escaped", 0), ("a]}", "must be escaped", 2),
        (String(repeating: "(", count: 70) + String(repeating: ")", count: 70), "deeper", 64),
    ])
    func unsupportedSyntaxIsALocatedError(pattern: String, message: String, offset: Int) {
        #expect {
            _ = try RegexProgram(pattern)
        } throws: { error in
            guard let error = error as? RegexSyntaxError else { return false }
            return error.message.contains(message) && error.offset == offset
        }
    }

    @Test func anEmptyPatternMatchesEverything() throws {
        #expect(try RegexProgram("").matches("anything"))
        #expect(try RegexProgram("").matches(""))
    }

    @Test func programsLargerThanTheCapAreRefused() throws {
        #expect(throws: RegexSyntaxError.self) { try RegexProgram("(a{1000}){1000}") }
        #expect(throws: RegexSyntaxError.self) { try RegexProgram("((((a{10}){10}){10}){10}){10}") }
        #expect(try RegexProgram("a{1000}").matches(String(repeating: "a", count: 1000)))
        #expect(try RegexProgram("^[a-z]{1,1000}$").matches(String(repeating: "a", count: 1000)))
        #expect(try !RegexProgram("^[a-z]{1,1000}$").matches(String(repeating: "a", count: 1001)))
        #expect(throws: RegexSyntaxError.self) { try RegexProgram("^[a-z]{1,1000}-[a-z]{1,1000}-[a-z]{0,1000}$") }
    }
}
