import Foundation
import Testing
import _AnnaGeneratorCore
@testable import _AnnaInspector

/// How a call's `context.plan` picks the version it is checked against, in process:
/// by name and version with several plans, what a newer version changed or removed,
/// and nothing of versions without a versioned spec.
@Suite struct PlanVersionsTests {
    static func spec(_ text: String, file: String) throws -> TrackingSpec {
        let (spec, diagnostics) = AnnaGenerator().check(Array(text.utf8), file: file)
        guard let spec else { throw SpecError(diagnostics: diagnostics) }
        return spec
    }

    static func music(_ version: String, _ events: String) -> String {
        "anna: 1\nnamespace: Music\nversion: \(version)\nevents:\n\(events)"
    }

    static let shop = "anna: 1\nnamespace: Shop\nversion: 1.0.0\nevents:\n  songPlayed:\n    parameters:\n      sku: string\n"

    static func call(_ event: String, _ properties: String, plan: String?) throws -> JSONValue {
        let context = plan.map { #","context":{"plan":\#($0)}"# } ?? ""
        return try JSONParser.parse(Array(#"{"type":"track","event":"\#(event)","properties":{\#(properties)},"messageId":"m","anonymousId":"a"\#(context)}"#.utf8))
    }

    static func summary(_ result: CallChecker.Result) -> [String] {
        result.findings.map { "\($0.version ?? "-") \($0.severity.rawValue) \($0.rule.rawValue) \($0.path)" }
    }

    @Test func severalPlansAreMatchedByNameAndVersion() throws {
        let old = try Self.spec(Self.music("1.0.0", "  songPlayed:\n    parameters:\n      songID: string\n  skipped:\n    description: Gone in 2.0.0.\n"), file: "old/music.anna.yml")
        let new = try Self.spec(Self.music("2.0.0", "  songPlayed:\n    parameters:\n      songID: string\n"), file: "music.anna.yml")
        let shop = try Self.spec(Self.shop, file: "shop.anna.yml")
        let checker = CallChecker(versions: PlanVersions(current: [new, shop], released: [old]))
        #expect(checker.versions.knownVersions == "Music 1.0.0, Music 2.0.0, Shop 1.0.0")
        // Shop 1.0.0's songPlayed has a sku; Music's has a songID.
        let shopCall = try checker.check(Self.call("songPlayed", #""sku":"k""#, plan: #"{"name":"Shop","version":"1.0.0"}"#))
        #expect(Self.summary(shopCall).isEmpty && shopCall.version == "Shop 1.0.0")
        let musicCall = try checker.check(Self.call("songPlayed", #""sku":"k""#, plan: #"{"name":"Music","version":"1.0.0"}"#))
        #expect(Self.summary(musicCall) == ["Music 1.0.0 error unexpected-property properties.sku", "Music 1.0.0 error missing-property properties.songID"])
        // An event the newest version removed: information, and the call is valid.
        let removed = try checker.check(Self.call("skipped", "", plan: #"{"name":"Music","version":"1.0.0","eventVersion":"1.0.0"}"#))
        #expect(Self.summary(removed) == ["Music 1.0.0 information superseded-version context.plan.version"])
        #expect(removed.findings.first?.actual == "version 1.0.0, removed in 2.0.0" && removed.declared)
        #expect(CallRecord.status(of: removed.findings) == .valid)
        // The name decides with several plans: Shop has no 2.0.0.
        let unknown = try checker.check(Self.call("songPlayed", #""sku":"k""#, plan: #"{"name":"Shop","version":"2.0.0"}"#))
        #expect(Self.summary(unknown) == ["Shop 2.0.0 (unknown) error unknown-version context.plan.version"])
        #expect(unknown.findings.first?.expected == "a known plan version: Music 1.0.0, Music 2.0.0, Shop 1.0.0")
        // Only events and screens carry a version: an identify call without one is no
        // finding (check-one-wire.py fails on any), an event call without one is.
        let identify = try checker.check(
            JSONParser.parse(Array(#"{"type":"identify","userId":"u-1","traits":{},"messageId":"m","anonymousId":"a"}"#.utf8)))
        #expect(!identify.findings.contains { $0.rule == .unversioned }, "\(Self.summary(identify))")
        let event = try checker.check(Self.call("songPlayed", #""songID":"s""#, plan: nil))
        #expect(event.findings.contains { $0.rule == .unversioned }, "\(Self.summary(event))")
    }

    @Test func withoutAVersionedSpecNothingSpeaksOfVersions() throws {
        let checker = CallChecker(plan: try Fixtures.plan())
        let result = try checker.check(Self.call("appOpened", "", plan: #"{"name":"Store","version":"9.0.0"}"#))
        #expect(result.findings.isEmpty && result.version == nil)
        var log = InspectionLog(limits: InspectorLimits())
        _ = log.record(time: 0, endpoint: "/v1/track", type: result.type, name: result.name, findings: result.findings, json: "{}")
        let report = InspectionReport(log: log, plan: checker.plan, required: nil, failOnWarnings: false, versions: checker.versions)
        #expect(report.versions == nil && report.totals.information == nil)
        #expect(!report.json().contains("\"versions\"") && !report.json().contains("information"))
    }
}
