import AnnaRules
import Foundation
import Testing
@testable import Anna

/// Patterns that ICU (`NSRegularExpression`, which readers of a spec and most tools
/// use) reads otherwise than Anna's engine are refused, and every pattern Anna
/// accepts means the same to both: a differential test over generated patterns that
/// mix the class syntax where the two could part.
@Suite struct RegexAmbiguityTests {
    @Test(arguments: [
        ("^[:alpha:]+$", "POSIX class", 1), ("[:digit:]", "POSIX class", 0), ("x[:^alpha:]", "POSIX class", 1),
        ("^[a-z&&b]$", "'&&' in a class", 5), ("[&&a]", "'&&' in a class", 1),
        ("^[+--]$", "'--' in a class", 3), ("[a--b]", "'--' in a class", 2),
        ("^[\\b]$", "'\\b' in a class", 2), ("(?P<name>a)", "(?<name>…)", 0),
        ("[:alpha]x:]", "POSIX class", 0), ("[&-:]", "'&' starting a range", 1),
    ])
    func ambiguousSyntaxIsALocatedError(pattern: String, message: String, offset: Int) {
        #expect {
            _ = try RegexProgram(pattern)
        } throws: { error in
            guard let error = error as? RegexSyntaxError else { return false }
            return error.message.contains(message) && error.message.contains("ICU") && error.offset == offset
        }
    }

    /// What stays accepted reads the same in ICU (checked by the differential test too).
    @Test(arguments: ["^[::]$", "^[:]$", "^[:a]$", "^[:alpha]$", "^[^:alpha:]$", "^[\\:alpha:]$", "^[a\\&\\&b]$", "^[a&]$", "^[a-]$", "^[\\x08]$", "^[\\&-:]$"])
    func unambiguousClassesStayAccepted(pattern: String) throws {
        _ = try RegexProgram(pattern)
        _ = try NSRegularExpression(pattern: pattern)
    }

    /// A pattern built from pieces where ICU's class syntax differs from a plain
    /// reading, so that random inputs over the same characters tell the readings apart.
    static func randomPattern(depth: Int, using random: inout RegexProgramTests.SeededGenerator) -> String {
        let classItems = [
            "a", "b", ":", "&", "&&", "-", "--", "\\b", "\\x08", "\\&", "\\-", "\\:", "a-c", "0-9", "\\d", "\\w", "alpha", "^", "_",
        ]
        let atoms = ["a", "b", ":", "&", "-", "1", ".", "\\d", "\\w", "\\b", "[:alpha:]", "[:digit:]", "[:^alpha:]", "\\x08"]
        let quantifiers = ["", "", "", "*", "+", "?", "{1,2}", "+?"]
        var pieces: [String] = []
        if Int.random(in: 0..<3, using: &random) == 0 { pieces.append("^") }
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            var atom: String
            switch Int.random(in: 0..<6, using: &random) {
            case 0 where depth > 0:
                let branches = (0..<Int.random(in: 1...2, using: &random)).map { _ in randomPattern(depth: depth - 1, using: &random) }
                atom = "(?:" + branches.joined(separator: "|") + ")"
            case 1, 2:
                let items = (0..<Int.random(in: 1...4, using: &random)).map { _ in classItems.randomElement(using: &random) ?? "a" }
                atom = "[" + (Bool.random(using: &random) ? ":" : "") + items.joined() + (Bool.random(using: &random) ? ":" : "") + "]"
            default:
                atom = atoms.randomElement(using: &random) ?? "a"
            }
            pieces.append(atom + (quantifiers.randomElement(using: &random) ?? ""))
        }
        if Int.random(in: 0..<3, using: &random) == 0 { pieces.append("$") }
        return pieces.joined()
    }

    @Test func everyAcceptedPatternMeansTheSameToICU() throws {
        var random = RegexProgramTests.SeededGenerator(state: 25_040_2026)
        let alphabet: [Character] = ["a", "b", "c", "h", "l", "p", "Z", "1", "5", ":", "&", "-", "^", "_", "\u{08}", "\u{E9}", "\u{663}"]
        var accepted = 0
        var refused = 0
        var mismatches: [String] = []
        for _ in 0..<3_000 {
            let pattern = Self.randomPattern(depth: 2, using: &random)
            guard let syntax = try? RegexParser.parse(pattern), let program = try? RegexProgram(syntax) else {
                refused += 1
                continue
            }
            accepted += 1
            guard let regex = try? NSRegularExpression(pattern: pattern) else {
                mismatches.append("/\(pattern)/: accepted by Anna, an error to ICU")
                continue
            }
            for _ in 0..<12 {
                let text = String((0..<Int.random(in: 0...6, using: &random)).map { _ in alphabet.randomElement(using: &random) ?? "a" })
                let icu = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
                if program.matches(text) != icu { mismatches.append("/\(pattern)/ on \(text.debugDescription): ICU \(icu)") }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) disagreements, e.g. \(mismatches.prefix(5))")
        // Both sides of the test are exercised: many patterns are refused, many compared.
        #expect(accepted > 1_000)
        #expect(refused > 300)
    }
}
