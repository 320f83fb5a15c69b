import Foundation
import Testing
@testable import _AnnaInspector

/// How a call is read: a key written twice as collectors read it, values in findings
/// as they arrived, and a PII property that Anna's default provider strips.
@Suite struct InspectorReadingTests {
    static let ids = CallCheckerTests.ids

    /// `JSON.parse` and Go's `encoding/json` keep the last value of a key written twice;
    /// the inspector checks that value, at any depth and in objects of any size.
    @Test func aKeyWrittenTwiceIsReadLastWins() throws {
        let call = try CallCheckerTests.check(#"{"type":"track","event":"notInThePlan","properties":{"resultCount":"x","query":"q","resultCount":4},"event":"searchPerformed","# + Self.ids + "}")
        #expect(call.name == "searchPerformed")
        #expect(CallCheckerTests.summary(call) == ["warning pii properties.query 25:7"], "the second event and resultCount are checked")
        var wide = (0..<40).map { #""k\#($0)":\#($0)"# }
        wide.append(#""k3":"last""#)
        let object = try JSONParser.parse(Array(("{" + wide.joined(separator: ",") + "}").utf8))
        #expect(object["k3"] == .string("last"))
        guard case .object(let fields) = object else { throw CancellationError() }
        #expect(fields.count == 40 && fields[3].0 == "k3", "the key keeps its first place, as JSON.parse keeps it")
        #expect(try JSONParser.parse(Array(#"{"a":1,"a":2}"#.utf8))["a"] == .int(2))

        // A batch written twice: the calls of the last one are checked and kept, with their own text.
        let inspector = Inspector(plan: try Fixtures.plan())
        let first = #"{"type":"track","event":"nope","# + Self.ids + "}"
        let last = #"{"type":"track","event":"appOpened","# + Self.ids + "}"
        let body = #"{"batch":[\#(first),\#(first)],"sentAt":"2026-01-01T10:00:00Z","batch":[\#(last)]}"#
        #expect(inspector.ingest(InspectorTests.request(body)).status == 200)
        let log = inspector.log
        #expect(log.totals.calls == 1 && log.totals.validCalls == 1)
        #expect(log.recent.map(\.name) == ["appOpened"] && log.recent.first?.json == last)
    }

    /// `<` and `>` in a value reach the finding as they arrived (the page shows it as
    /// text), not as `\u003c`; the JSON the page reads still escapes them.
    @Test func findingsShowValuesAsTheyArrived() throws {
        let call = try CallCheckerTests.check(#"{"type":"track","event":"orderPlaced","properties":{"orderID":"<b>&amp;</b>","total":"<1>","delivery":"<x>","items":[]},"# + Self.ids + "}")
        let messages = call.findings.map(\.message)
        #expect(messages.contains(#"track "orderPlaced" properties.total: expected a number (double), got "<1>""#), "\(messages)")
        #expect(messages.contains { $0.contains(#"properties.delivery: expected one of "standard", "express", "pickup", got "<x>""#) }, "\(messages)")
        let unknown = try CallCheckerTests.check(#"{"type":"track","event":"<script>","# + Self.ids + "}")
        #expect(unknown.findings.first?.message == #"track "<script>" event: expected an event the plan declares, got "<script>""#)
        var out: [UInt8] = []
        try #require(unknown.findings.first).writeJSON(into: &out)
        let text = String(decoding: out, as: UTF8.self)
        #expect(!text.contains("<") && text.contains(#"\u003cscript\u003e"#), "inside a <script> or not, the page's JSON closes nothing")
        let parsed = try JSONSerialization.jsonObject(with: Data(out)) as? [String: Any]
        #expect(parsed?["message"] as? String == #"track "<script>" event: expected an event the plan declares, got "<script>""#)
    }

    /// A required `pii: true` property, removed by DurableProvider's default
    /// `receivesPII: false` on the way: the call Anna sends is no "missing property".
    @Test func aRequiredPIIPropertyStrippedOnTheWayIsNoFinding() async throws {
        let stripped = try CallCheckerTests.check(#"{"type":"track","event":"searchPerformed","properties":{"resultCount":3},"# + Self.ids + "}")
        #expect(stripped.findings.isEmpty, "\(stripped.findings)")
        let other = try CallCheckerTests.check(#"{"type":"track","event":"searchPerformed","properties":{"query":"q"},"# + Self.ids + "}")
        #expect(CallCheckerTests.summary(other) == ["warning pii properties.query 25:7", "error missing-property properties.resultCount 26:7"])
    }
}
