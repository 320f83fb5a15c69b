@_spi(Generated) @testable import Anna
import AnnaRules
import AnnaTesting
import Foundation
import Testing

/// `pattern` constraints through the service: a pattern that makes backtracking
/// engines run for minutes is answered at once, and the pipeline keeps flowing.
@Suite struct PatternConstraintTests {
    static func event(_ value: String, pattern: String) -> AnalyticsEvent {
        AnalyticsEvent(name: "signedUp", parameters: ["handle": .string(value)], metadata: .init(constraints: ["handle": ParameterConstraint(pattern: pattern)]))
    }

    /// With NSRegularExpression (ICU on Linux) the search for `(a+)+b` in thousands
    /// of `a`s took longer than a test may run (the issue saw minutes for thirty on
    /// Apple platforms); the pipeline answered nothing else meanwhile.
    @Test func aCatastrophicHandBuiltPatternIsReportedAndEventsKeepFlowing() async {
        let recorder = RecordingProvider()
        let errors = ErrorLog()
        let analytics = AnalyticsService(providers: [recorder], configuration: .test(violationPolicy: .send, errorHandler: errors.handler))
        analytics.report(Self.event(String(repeating: "a", count: 30) + "!", pattern: "^(a+)+$"))
        analytics.report(Self.event(String(repeating: "a", count: 4000) + "!ab", pattern: "(a+)+b"))
        analytics.report(Self.event(String(repeating: "a", count: 4000) + "!", pattern: "^(a+)+$"))
        analytics.report(Self.event(String(repeating: "a", count: 4000), pattern: "^(a+)+$"))
        analytics.report(AnalyticsEvent(name: "after"))
        await analytics.flush()
        #expect(recorder.events.map(\.name) == ["signedUp", "signedUp", "signedUp", "signedUp", "after"])
        #expect(errors.errors.map(\.description) == Array(repeating: "event 'signedUp' parameter 'handle': must be matching /^(a+)+$/ (policy: send)", count: 2))
    }

    @Test func valuesLongerThanTheMatchingLimitAreViolations() async {
        let recorder = RecordingProvider()
        let errors = ErrorLog()
        let analytics = AnalyticsService(providers: [recorder], configuration: .test(violationPolicy: .drop, errorHandler: errors.handler))
        analytics.report(Self.event(String(repeating: "é", count: 4096), pattern: "^é+$"))
        analytics.report(Self.event(String(repeating: "é", count: 4097), pattern: "^é+$"))
        await analytics.flush()
        #expect(recorder.events.map { $0.parameters["handle"] } == [.string(String(repeating: "é", count: 4096))])
        #expect(errors.errors.map(\.description) == ["event 'signedUp' parameter 'handle': must be at most 4096 characters long to be matched against /^é+$/ (policy: drop)"])
    }

    /// Program size × value length is bounded: the largest accepted program (about
    /// 4,000 instructions) matches values up to 61 scalars; a longer one is a
    /// violation without being matched, so no value costs more than a few milliseconds.
    @Test func largePatternsMatchOnlyValuesWithinTheStepBudget() async throws {
        let worst = "(?:.?){1000}(?:.?){990}x"
        #expect(try RegexProgram(worst).maximumInputLength == 61)
        #expect(try RegexProgram("^é+$").maximumInputLength == 4096)
        let recorder = RecordingProvider()
        let errors = ErrorLog()
        let analytics = AnalyticsService(providers: [recorder], configuration: .test(violationPolicy: .drop, errorHandler: errors.handler))
        analytics.report(Self.event(String(repeating: "a", count: 60) + "x", pattern: worst))
        analytics.report(Self.event(String(repeating: "a", count: 4096), pattern: worst))
        analytics.report(Self.event(String(repeating: "a", count: 61) + "x", pattern: worst))
        await analytics.flush()
        #expect(recorder.events.map { $0.parameters["handle"] } == [.string(String(repeating: "a", count: 60) + "x")])
        #expect(errors.errors.map(\.description) == Array(
            repeating: "event 'signedUp' parameter 'handle': must be at most 61 characters long to be matched against /\(worst)/ (policy: drop)", count: 2))
    }

    /// NSRegularExpression accepted backreferences; Anna's matcher does not, says so
    /// once, and does not stop on it.
    @Test func anUnsupportedHandBuiltPatternIsReportedOnceThenSkipped() async {
        let recorder = RecordingProvider()
        let errors = ErrorLog()
        let analytics = AnalyticsService(providers: [recorder], configuration: .test(violationPolicy: .log, errorHandler: errors.handler))
        analytics.report(Self.event("aa", pattern: "(a)\\1"))
        analytics.report(Self.event("ab", pattern: "(a)\\1"))
        analytics.report(Self.event("ab", pattern: "^a+$"))
        await analytics.flush()
        #expect(recorder.events.count == 3)
        #expect(errors.errors.map(\.description) == [
            "event 'signedUp' parameter 'handle': must be matching /(a)\\1/, which cannot be checked: backreferences (\\1) are not supported; repeat the group's pattern instead (at offset 3); this pattern is skipped from now on (policy: log)",
            "event 'signedUp' parameter 'handle': must be matching /^a+$/ (policy: log)",
        ])
    }
}
