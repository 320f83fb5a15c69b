import Foundation
import Testing

@_spi(DurableQueue) @testable import Anna

/// A context with every field fixed, for byte comparisons.
let fixedContext = AnalyticsContext(
    app: .init(name: "Shop", version: "1.0", build: "7"), device: .init(model: "x86_64"),
    os: .init(name: "Linux", version: "6.1"), locale: "en_US", timezone: "UTC",
    library: .init(name: "anna-swift", version: "0.0.0"))

/// One envelope of each kind, with one parameter each (a dictionary's order is not
/// fixed across processes) and every identifier fixed.
func goldenEnvelopes() -> [AnalyticsEnvelope] {
    let id = UUID(uuidString: "019A9B4E-8F3C-7D21-9A4B-3C2D1E0F9A8B")!
    let time = Date(timeIntervalSince1970: 1_763_895_600.25)
    func make(_ kind: AnalyticsEnvelope.Kind, _ event: AnalyticsEvent, userID: String?, group: String? = nil,
              previous: String? = nil) -> AnalyticsEnvelope {
        AnalyticsEnvelope(
            event: event, messageID: id, timestamp: time, sessionID: 1_763_895_600_000, anonymousID: "anon-1",
            userID: userID, context: fixedContext, kind: kind, groupID: group, previousID: previous)
    }
    return [
        make(.track, AnalyticsEvent(name: "Order \"Placed\"", parameters: ["total": .double(9.5)]), userID: nil),
        make(.screen, AnalyticsEvent(name: "Basket", parameters: ["items": .int(3)]), userID: "u-1"),
        make(.identify, AnalyticsEvent(name: "", parameters: ["plan": .string("pro")]), userID: "u-1"),
        make(.group, AnalyticsEvent(name: "", parameters: ["seats": .int(12)]), userID: "u-1", group: "g-9"),
        make(.alias, AnalyticsEvent(name: "", parameters: [:]), userID: "u-2", previous: "u-1"),
        make(.alias, AnalyticsEvent(name: "", parameters: [:]), userID: "u-2"),
    ]
}

func encoded(_ envelope: AnalyticsEnvelope) -> String {
    var encoder = TrackingAPIEncoder()
    var bytes: [UInt8] = []
    encoder.encode(envelope, into: &bytes)
    return String(decoding: bytes, as: UTF8.self)
}

/// The calls of the Segment HTTP Tracking API on the wire: their bytes, their
/// fields at a collector, through retries and through a restart after a kill -9.
@Suite(.serialized) struct SegmentCallsTests {
    /// The exact bytes. The track line is the encoder's output before the other calls
    /// existed, byte for byte.
    @Test func eachCallHasItsSegmentBytes() {
        let context = #""context":{"app":{"name":"Shop","version":"1.0","build":"7"},"device":{"model":"x86_64"},"os":{"name":"Linux","version":"6.1"},"library":{"name":"anna-swift","version":"0.0.0"},"locale":"en_US","timezone":"UTC","sessionId":1763895600000}}"#
        let ids = #""messageId":"019a9b4e-8f3c-7d21-9a4b-3c2d1e0f9a8b","timestamp":"2025-11-23T11:00:00.250Z","anonymousId":"anon-1""#
        let expected = [
            #"{"type":"track","event":"Order \"Placed\"","properties":{"total":9.5},"# + ids + "," + context,
            #"{"type":"screen","name":"Basket","properties":{"items":3},"# + ids + #","userId":"u-1","# + context,
            #"{"type":"identify","traits":{"plan":"pro"},"# + ids + #","userId":"u-1","# + context,
            #"{"type":"group","groupId":"g-9","traits":{"seats":12},"# + ids + #","userId":"u-1","# + context,
            #"{"type":"alias","previousId":"u-1","# + ids + #","userId":"u-2","# + context,
            // Without a former id, the anonymous id is the one the user was known by.
            #"{"type":"alias","previousId":"anon-1","# + ids + #","userId":"u-2","# + context,
        ]
        let actual = goldenEnvelopes().map(encoded)
        #expect(actual.count == expected.count)
        for (line, golden) in zip(actual, expected) { #expect(line == golden) }
        // Every line is JSON, whatever else it is.
        for line in actual { #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) is [String: Any], "\(line)") }
    }

    /// The encoder caches the context's bytes: calls of different kinds in a row, with
    /// contexts changing, encode as each does alone.
    @Test func mixedCallsEncodeAsEachAlone() {
        var encoder = TrackingAPIEncoder()
        var other = fixedContext
        other.locale = "de_DE"
        for (index, var envelope) in (goldenEnvelopes() + goldenEnvelopes()).enumerated() {
            if index % 3 == 0 { envelope.context = other }
            var bytes: [UInt8] = []
            encoder.encode(envelope, into: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == encoded(envelope))
        }
    }

    @Test func theProviderTakesEveryKind() throws {
        let provider = try DurableProvider(
            endpoint: URL(string: "https://api.segment.io/v1/batch")!, writeKey: "k", storage: .memory(limit: 1 << 20),
            options: ProviderOptions(receivesPII: true))
        #expect(provider.options.receivedKinds == Set(AnalyticsEnvelope.Kind.allCases))
        #expect(provider.options.receivesPII)
    }

    /// identify, screen, group and alias reach the collector with Segment's fields,
    /// compared field by field with what was received.
    @Test func callsReachTheCollectorFieldByField() async throws {
        let collector = try LoopbackCollector()
        defer { collector.stop() }
        let provider = try DurableProvider(
            endpoint: collector.endpoint, writeKey: "test-key", storage: .memory(limit: 1 << 20), configuration: .test())
        let sent = mixedCalls(0..<20)
        try await provider.receive(sent)
        try await provider.flush()
        let accepted = try await collector.accepted()
        #expect(accepted.invalid.isEmpty && accepted.statuses == ["200": 1])
        let bodies = try await collector.bodies()
        let body = try #require(bodies.first)
        let batch = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        let events = try #require(batch["batch"] as? [[String: Any]])
        #expect(events.count == sent.count)
        for (event, envelope) in zip(events, sent) { try expectSegmentFields(event, envelope) }
        await provider.shutdown()
    }

    /// A collector failing with 500 and 429 first receives the very same bytes each
    /// time, message ids and timestamps included; it accepts each call once.
    @Test func retriesSendTheSameBytes() async throws {
        let collector = try LoopbackCollector()
        defer { collector.stop() }
        try await collector.control(["script": [["status": 500], ["status": 429, "retryAfter": "0"], ["status": 500]]])
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let provider = try DurableProvider(
            endpoint: collector.endpoint, writeKey: "test-key", storage: .directory(directory.url), configuration: .test())
        let sent = mixedCalls(0..<10)
        try await provider.receive(sent)
        let delivered = await eventually(within: 30) {
            try? await provider.flush()
            return provider.metrics.delivered == sent.count
        }
        #expect(delivered)
        let bodies = try await collector.bodies()
        #expect(bodies.count == 4, "three failures, then the accepted request")
        for body in bodies {
            #expect(body.hasPrefix(#"{"batch":["# + sent.map(encoded).joined(separator: ",") + #"],"sentAt":""#))
        }
        let accepted = try await collector.accepted()
        #expect(accepted.events.map(\.messageID) == sent.map { $0.messageID.uuidString.lowercased() })
        #expect(accepted.statuses == ["500": 2, "429": 1, "200": 1])
        await provider.shutdown()
    }

    /// A process receives calls of every kind while the collector fails, is killed with
    /// SIGKILL, and a new provider on the same directory delivers them: the bytes the
    /// dead process sent are the bytes the new one sends, each call accepted once.
    @Test func aRestartAfterKillSendsTheSameBytes() async throws {
        let collector = try LoopbackCollector()
        defer { collector.stop() }
        try await collector.control(["default": ["status": 500]])
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let child = try ChildProcess(["calls", directory.url.path, collector.endpoint.absoluteString])
        #expect(await eventually(within: 60) { child.lines.contains("persisted 40") }, "\(child.lines)")
        #expect(await eventually(within: 30) { ((try? await collector.bodies()) ?? []).count >= 1 })
        child.kill()
        let sent = try child.lines.filter { $0.hasPrefix("envelope ") }.map { line in
            try JSONDecoder().decode(AnalyticsEnvelope.self, from: Data(base64Encoded: String(line.dropFirst(9))) ?? Data())
        }
        #expect(sent.count == 40 && Set(sent.map(\.kind)) == Set(AnalyticsEnvelope.Kind.allCases))
        let failed = try await collector.bodies()

        try await collector.control(["default": ["status": 200]])
        let provider = try DurableProvider(
            endpoint: collector.endpoint, writeKey: "test-key", storage: .directory(directory.url), configuration: .test())
        #expect(await eventually(within: 30) {
            try? await provider.flush()
            return provider.metrics.delivered == sent.count
        })
        let expected = #"{"batch":["# + sent.map(encoded).joined(separator: ",") + #"],"sentAt":""#
        let bodies = try await collector.bodies()
        #expect(bodies.count > failed.count)
        for body in bodies { #expect(body.hasPrefix(expected)) }
        let accepted = try await collector.accepted()
        #expect(accepted.events.map(\.messageID) == sent.map { $0.messageID.uuidString.lowercased() })
        #expect(accepted.invalid.isEmpty)
        let events = try #require(accepted.last?["batch"] as? [[String: Any]])
        for (event, envelope) in zip(events, sent) { try expectSegmentFields(event, envelope) }
        await provider.shutdown()
    }
}

/// Calls of every kind in turn, numbered by an `n` parameter or trait.
func mixedCalls(_ numbers: Range<Int>) -> [AnalyticsEnvelope] {
    var ids = MessageIDGenerator()
    let kinds = AnalyticsEnvelope.Kind.allCases
    return numbers.map { number in
        let kind = kinds[number % kinds.count]
        let parameters: [String: AnalyticsValue] =
            kind == .alias ? [:] : ["n": .int(number), "plan": .string("pro \"\(number)\"\n"), "seats": .double(1.5)]
        return AnalyticsEnvelope(
            event: AnalyticsEvent(name: kind == .screen ? "Screen \(number)" : kind == .track ? "Numbered" : "", parameters: parameters),
            messageID: ids.next(at: Date()), timestamp: Date(timeIntervalSince1970: 1_763_895_600 + Double(number) / 1000),
            sessionID: 1_763_895_600_000, anonymousID: "anon-\(number)", userID: kind == .track ? nil : "user-\(number)",
            context: fixedContext, kind: kind, groupID: kind == .group ? "group-\(number)" : nil,
            previousID: kind == .alias ? "old-\(number)" : nil)
    }
}

/// Checks one event as the collector parsed it against the Segment HTTP Tracking API
/// and the envelope it came from.
func expectSegmentFields(_ event: [String: Any], _ envelope: AnalyticsEnvelope) throws {
    var expectedKeys: Set<String> = ["type", "messageId", "timestamp", "context", "anonymousId"]
    if envelope.userID != nil { expectedKeys.insert("userId") }
    #expect(event["type"] as? String == envelope.kind.rawValue)
    #expect(event["messageId"] as? String == envelope.messageID.uuidString.lowercased())
    var timestamp: [UInt8] = []
    TrackingAPIEncoder.timestamp(envelope.timestamp, into: &timestamp)
    #expect(event["timestamp"] as? String == String(decoding: timestamp, as: UTF8.self))
    #expect(event["anonymousId"] as? String == envelope.anonymousID)
    #expect(event["userId"] as? String == envelope.userID)
    let context = try #require(event["context"] as? [String: Any])
    #expect((context["sessionId"] as? NSNumber)?.int64Value == envelope.sessionID)
    #expect((context["library"] as? [String: Any])?["name"] as? String == envelope.context.library.name)
    let values = (event["properties"] ?? event["traits"]) as? [String: Any] ?? [:]
    if envelope.kind != .alias {
        #expect(values.count == envelope.event.parameters.count)
        #expect((values["n"] as? NSNumber)?.intValue == envelope.event.parameters["n"].flatMap { if case .int(let n) = $0 { n } else { nil } })
        #expect(values["plan"] as? String == envelope.event.parameters["plan"].flatMap { if case .string(let text) = $0 { text } else { nil } })
    }
    switch envelope.kind {
    case .track:
        expectedKeys.formUnion(["event", "properties"])
        #expect(event["event"] as? String == envelope.event.name)
    case .screen:
        expectedKeys.formUnion(["name", "properties"])
        #expect(event["name"] as? String == envelope.event.name)
    case .identify:
        expectedKeys.insert("traits")
    case .group:
        expectedKeys.formUnion(["groupId", "traits"])
        #expect(event["groupId"] as? String == envelope.groupID)
    case .alias:
        expectedKeys.insert("previousId")
        #expect(event["previousId"] as? String == envelope.previousID)
    }
    #expect(Set(event.keys) == expectedKeys, "\(event.keys.sorted()) for \(envelope.kind)")
}
