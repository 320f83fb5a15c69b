import AnnaRules
import Testing
@testable import Anna

/// The build-time check for patterns that stall backtracking matchers: it finds the
/// classic forms, points at them, and leaves the patterns specs really use alone.
@Suite struct RegexHazardTests {
    @Test(arguments: [
        ("^(a+)+$", RegexHazard.Kind.nestedQuantifiers, 1..<6),
        ("(a*)*", .nestedQuantifiers, 0..<5),
        ("x(a+)*y", .nestedQuantifiers, 1..<6),
        ("(.*a){20}", .nestedQuantifiers, 0..<9),
        ("^(\\w+\\s?)+$", .nestedQuantifiers, 1..<10),
        ("(x+x+)+y", .nestedQuantifiers, 0..<7),
        ("(a|a)*", .overlappingAlternatives, 0..<6),
        ("(\\w|\\d)+", .overlappingAlternatives, 0..<8),
        ("(a|aa)+$", .overlappingAlternatives, 0..<7),
        ("^#([0-9a-f]|[0-9])+$", .overlappingAlternatives, 2..<19),
        ("(a|a){30}", .overlappingAlternatives, 0..<9),
        ("(a?b?)*", .overlappingAlternatives, 0..<7),
        ("([a-zé]|\\w)+", .overlappingAlternatives, 0..<12),
    ])
    func findsExponentialForms(pattern: String, kind: RegexHazard.Kind, range: Range<Int>) throws {
        let hazard = try #require(RegexHazard.find(in: RegexParser.parse(pattern)))
        #expect(hazard.kind == kind)
        #expect(hazard.range == range)
    }

    @Test(arguments: [
        "^[A-Z0-9]+$", "^[A-Z]{3}\\d+\"\\\\$", "^([a-z]+\\.)*[a-z]+$", "^v\\d+(\\.\\d+)*$",
        "^[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}$", "^\\d{3}-\\d{4}$", "^(\\d{3}-)+\\d+$", "^(ab|cd)+$",
        "^(a|b)*$", ".*a.*b", "^(a|ab)*c$", "^SKU-[0-9]+$", "^[^@]+@[^@]+$", "^(?:[01]\\d|2[0-3]):[0-5]\\d$",
        "", "a|a", "^(a+b)+$",
    ])
    func leavesLinearPatternsAlone(pattern: String) throws {
        #expect(RegexHazard.find(in: try RegexParser.parse(pattern)) == nil)
    }

    @Test func patternsTooLargeToAnalyseAreReported() throws {
        let hazard = RegexHazard.find(in: try RegexParser.parse(String(repeating: "a", count: 301)))
        #expect(hazard?.kind == .tooComplex)
    }

    @Test func messagesQuoteTheRepetition() throws {
        let hazard = try #require(RegexHazard.find(in: RegexParser.parse("^id-(a+)+$")))
        #expect(hazard.message(in: "^id-(a+)+$").hasPrefix("nests quantifiers in '(a+)+', so"))
        #expect(hazard.description.hasPrefix("nests quantifiers in a repetition (like (a+)+), so"))
    }
}
