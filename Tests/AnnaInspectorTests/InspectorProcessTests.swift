// anna-inspect serves only with the Inspector trait (`swift test --enable-all-traits`).
#if Inspector
import Anna
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// anna-inspect as a process: Anna's DurableProvider and a client written to
/// Segment's API shape send to it over real HTTP; the CI gate's exit codes, reports
/// and annotations; forwarding to a second loopback collector.
@Suite(.serialized, .timeLimit(.minutes(10))) struct InspectorProcessTests {
    static func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appending(path: "anna-inspect-\(UUID().uuidString)-\(name)").path
    }

    static func json(at path: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any] ?? [:]
    }

    static func findings(_ report: [String: Any]) -> [String] {
        (report["findings"] as? [[String: Any]] ?? []).map {
            "\($0["rule"] as? String ?? "") \($0["path"] as? String ?? "") \($0["line"] as? Int ?? 0):\($0["column"] as? Int ?? 0)"
        }
    }

    @Test func annasHTTPProviderSendsToTheInspector() async throws {
        let report = Self.temporary("report.json")
        defer { try? FileManager.default.removeItem(atPath: report) }
        let inspector = try InspectorProcess(["store.anna.yml", "--report-json", report], in: Fixtures.folder)
        let provider = try DurableProvider(
            endpoint: inspector.address.appending(path: "v1/batch"), writeKey: "debug-key", storage: .memory(limit: 1 << 20))
        func envelope(_ kind: AnalyticsEnvelope.Kind, _ name: String, _ parameters: [String: AnalyticsValue], group: String? = nil) -> AnalyticsEnvelope {
            AnalyticsEnvelope(
                event: AnalyticsEvent(name: name, parameters: parameters), messageID: UUID(), timestamp: Date(), sessionID: 1, anonymousID: "anon-1",
                userID: kind == .track ? nil : "u-1", context: AnalyticsContext(app: .init(name: "Store")), kind: kind, groupID: group)
        }
        let item: AnalyticsValue = .object(["sku": .string("ABC-1"), "price": .double(2.5), "quantity": .int(1)])
        try await provider.receive([
            envelope(.track, "orderPlaced", ["orderID": .string("o-1"), "total": .double(9.5), "delivery": .string("pickup"), "items": .array([item])]),
            envelope(.track, "orderPlaced", ["orderID": .string("o-2"), "total": .string("9.5"), "delivery": .string("drone"), "items": .array([])]),
            envelope(.screen, "Cart", ["itemCount": .int(2)]),
            envelope(.identify, "", ["email": .string("a@b.c"), "shoeSize": .int(44)]),
            envelope(.group, "", ["seats": .int(0)], group: "g-1"),
        ])
        try await provider.flush()
        #expect(provider.metrics.delivered == 5)
        await provider.shutdown()
        let exit = try await inspector.stop(SIGTERM)
        #expect(exit.status == 1, "\(exit.stderr)")
        #expect(exit.stderr.contains("anna-inspect: stopping (SIGTERM)"))
        let json = try Self.json(at: report)
        // Anna writes properties in dictionary order, so the first two come in either order.
        #expect(Self.findings(json).sorted() == [
            "constraint traits.seats 48:3", "not-in-enum properties.delivery 20:7", "unknown-trait traits.shoeSize 40:1", "wrong-type properties.total 19:7",
        ])
        let totals = try #require(json["totals"] as? [String: Any])
        #expect(totals["calls"] as? Int == 5 && totals["validCalls"] as? Int == 2 && totals["invalidCalls"] as? Int == 3)
        #expect(json["specs"] as? [String] == ["store.anna.yml"])
    }

    /// A required `pii: true` property goes through AnalyticsService to DurableProvider,
    /// whose default `receivesPII: false` strips it: what arrives is no "missing property".
    @Test func aPIIPropertyStrippedByAnnasDefaultProviderIsNoFinding() async throws {
        let report = Self.temporary("report.json")
        let storage = FileManager.default.temporaryDirectory.appending(path: "anna-inspect-\(UUID().uuidString)-state")
        defer {
            try? FileManager.default.removeItem(atPath: report)
            try? FileManager.default.removeItem(at: storage)
        }
        let inspector = try InspectorProcess([Fixtures.store, "--report-json", report])
        let provider = try DurableProvider(endpoint: inspector.address.appending(path: "v1/batch"), writeKey: "debug-key", storage: .memory(limit: 1 << 20))
        let analytics = AnalyticsService(providers: [provider], configuration: .init(storageDirectory: storage))
        // What the generated factory makes of store.anna.yml's searchPerformed (query: pii).
        analytics.report(AnalyticsEvent(name: "searchPerformed", parameters: ["query": "red shoes", "resultCount": 3], metadata: .init(piiKeys: ["query"])))
        await analytics.flush()
        try await provider.flush()
        #expect(provider.metrics.delivered == 1)
        await analytics.shutdown()
        let exit = try await inspector.stop(SIGTERM)
        #expect(exit.status == 0, "\(exit.stderr)")
        let json = try Self.json(at: report)
        #expect(Self.findings(json).isEmpty)
        let totals = try #require(json["totals"] as? [String: Any])
        #expect(totals["calls"] as? Int == 1 && totals["validCalls"] as? Int == 1 && totals["warnings"] as? Int == 0, "\(totals)")
    }

    /// A client that writes Segment's API by hand, as analytics.js or analytics-kotlin
    /// do: single-call endpoints, gzip, a batch with its own context, and mistakes.
    @Test func aSegmentShapedClientAndTheGate() async throws {
        let report = Self.temporary("report.json")
        let junit = Self.temporary("report.xml")
        defer { for file in [report, junit] { try? FileManager.default.removeItem(atPath: file) } }
        let inspector = try InspectorProcess(
            // Long enough that a loaded machine's pause between two requests is not idleness
            // (reading calls at /api/… does not count as activity): with 6 s, a fresh clone's
            // whole run beside a sanitizer run found the inspector gone before a request.
            [Fixtures.store, "--idle-timeout", "15", "--report-json", report, "--report-junit", junit, "--github-annotations", "--max-body", "4096"])
        let track = #"{"type":"track","event":"searchPerformed","properties":{"query":"red shoes","resultCount":-3},"messageId":"b1","anonymousId":"web-1","timestamp":"2026-01-01T10:00:00.000Z","context":{"library":{"name":"analytics.js"}}}"#
        #expect(try await inspector.send("/v1/track", body: Data(track.utf8)) == (200, #"{"success":true}"#))
        let batch = #"{"batch":[{"type":"page","name":"Home","anonymousId":"web-1","messageId":"b2"},{"type":"track","event":"checkoutStarted","anonymousId":"web-1","messageId":"b3"}],"sentAt":"2026-01-01T10:00:01.000Z","context":{"library":{"name":"analytics-kotlin"}}}"#
        #expect(try await inspector.send("/v1/batch", body: try gzipped(Data(batch.utf8)), encoding: "gzip").status == 200)
        #expect(try await inspector.send("/v1/identify", body: Data(#"{"userId":"u-9","traits":{"loyaltyTier":"gold"},"messageId":"b4"}"#.utf8)).status == 200)
        // Each call's JSON on demand, as sent.
        let first = try await inspector.send("/api/calls/1", body: Data(), method: "GET")
        #expect(first.status == 200 && first.body.contains(#""name":"searchPerformed""#) && first.body.contains(#"\"resultCount\":-3"#), "\(first.body)")
        #expect(try await inspector.send("/api/calls/999", body: Data(), method: "GET").status == 404)
        let malformed = try await inspector.send("/v1/batch", body: Data("{\"batch\":[".utf8))
        #expect(malformed.status == 400 && malformed.body.contains("the body is not JSON"))
        #expect(try await inspector.send("/v1/batch", body: Data("{}".utf8), contentType: "application/x-www-form-urlencoded").status == 415)
        #expect(try await inspector.send("/v1/batch", body: Data(repeating: 0x20, count: 10_000)).status == 413)
        #expect(try await inspector.send("/v1/batch", body: Data("garbage".utf8), encoding: "gzip").status == 400)
        let exit = try await inspector.stop(nil)
        #expect(exit.status == 1)
        #expect(exit.stderr.contains("anna-inspect: stopping (idle for 15 s)"))
        let json = try Self.json(at: report)
        #expect(Self.findings(json) == [
            "pii properties.query 25:7", "constraint properties.resultCount 26:7", "unknown-event event 14:1", "request  0:0", "request  0:0", "request  0:0",
            "request  0:0",
        ])
        let totals = try #require(json["totals"] as? [String: Any])
        #expect(totals["rejectedRequests"] as? Int == 4 && totals["calls"] as? Int == 4 && totals["requests"] as? Int == 7)
        // GitHub annotations on standard output point at the spec's lines.
        #expect(exit.stdout.contains("::error file=\(Fixtures.storeInAnnotations),line=26,col=7,title=anna inspect%3A constraint::track \"searchPerformed\" properties.resultCount: expected at least 0, got -3\n"))
        #expect(exit.stdout.contains("::warning file=\(Fixtures.storeInAnnotations),line=25,col=7,title=anna inspect%3A pii::"))
        #expect(!exit.stdout.contains("red shoes"), "a PII value is never printed")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.hasPrefix(#"<?xml version="1.0" encoding="UTF-8"?>"#))
        #expect(xml.contains(#"<testcase classname="anna-inspect.calls" name="page &quot;Home&quot;"/>"#))
        #expect(xml.contains(#"<testcase classname="anna-inspect.requests" name="requests">"#))
    }

    @Test func exitCodesForACleanRunCoverageAndBadInput() async throws {
        let clean = try InspectorProcess([Fixtures.store, "--require", "appOpened"])
        let call = #"{"type":"track","event":"appOpened","messageId":"m","anonymousId":"a","timestamp":"2026-01-01T00:00:00Z"}"#
        #expect(try await clean.send("/v1/track", body: Data(call.utf8)).status == 200)
        let passed = try await clean.stop(SIGINT)
        #expect(passed.status == 0, "\(passed.stderr)")
        #expect(passed.stderr.contains("; passed"))

        let all = try InspectorProcess([Fixtures.store, "--require-all", "--github-annotations"])
        #expect(try await all.send("/v1/track", body: Data(call.utf8)).status == 200)
        let missing = try await all.stop(SIGTERM)
        #expect(missing.status == 1)
        #expect(missing.stdout.contains("::error file=\(Fixtures.storeInAnnotations),line=15,col=3,title=anna inspect%3A not-seen::event 'orderPlaced' must be covered by this run but was never seen"))
        #expect(missing.stderr.contains("not seen but required: orderPlaced, searchPerformed, legacyCheckout, Cart, Home"))

        let absent = try await run([Fixtures.folder.appending(path: "missing.anna.yml").path])
        #expect(absent.status == 2 && absent.stderr.contains("missing.anna.yml:1:1: error: no such file or folder"))
        let invalid = Self.temporary("bad.anna.yml")
        defer { try? FileManager.default.removeItem(atPath: invalid) }
        try "anna: 1\nevents:\n  a:\n    parameters:\n      b: strng\n".write(toFile: invalid, atomically: true, encoding: .utf8)
        let badSpec = try await run([invalid])
        #expect(badSpec.status == 2 && badSpec.stderr.contains("bad.anna.yml:5:10: error: unknown type 'strng'"))
        // `anna inspect` is anna-inspect.
        let delegated = try await run(["inspect", invalid], executable: InspectorProcess.productsFolder.appending(path: "anna"))
        #expect(delegated.status == 2 && delegated.stderr.contains("error: unknown type 'strng'"))
    }

    func run(_ arguments: [String], executable: URL = InspectorProcess.executable) async throws -> InspectorProcess.Exit {
        try InspectorProcess.run(arguments, executable: executable)
    }

    @Test func forwardingRelaysAcceptedRequestsUnchangedAndInOrder() async throws {
        let upstream = try ForwardTarget()
        let report = Self.temporary("report.json")
        defer { try? FileManager.default.removeItem(atPath: report) }
        let inspector = try InspectorProcess([Fixtures.store, "--forward", "http://127.0.0.1:\(upstream.port)", "--report-json", report])
        var sent: [(path: String, body: Data, encoding: String?)] = []
        for index in 0..<30 {
            let call = #"{"type":"track","event":"\#(index % 5 == 0 ? "unknownEvent" : "appOpened")","messageId":"m-\#(index)","anonymousId":"a"}"#
            if index % 3 == 0 {
                let body = try gzipped(Data(#"{"batch":[\#(call)]}"#.utf8))
                sent.append(("/v1/batch", body, "gzip"))
            } else {
                sent.append(("/v1/track", Data(call.utf8), nil))
            }
            let last = try #require(sent.last)
            #expect(try await inspector.send(last.path, body: last.body, encoding: last.encoding).status == 200)
            if index == 10 {
                // Refused requests are not forwarded.
                #expect(try await inspector.send("/v1/batch", body: Data("{".utf8)).status == 400)
            }
        }
        let exit = try await inspector.stop(SIGTERM)
        #expect(exit.status == 1, "unknownEvent is a violation")
        let received = try await upstream.received()
        #expect(received.count == 30)
        #expect(received.map(\.path) == sent.map(\.path))
        #expect(received.map(\.body) == sent.map(\.body), "the same bytes, gzip included, in the same order")
        #expect(received.map(\.encoding) == sent.map(\.encoding))
        #expect(received.allSatisfy { $0.authorization == "Basic " + Data("test-key:".utf8).base64EncodedString() })
        let forwarding = try #require(try Self.json(at: report)["forwarding"] as? [String: Any])
        #expect(forwarding["forwarded"] as? Int == 30 && forwarding["dropped"] as? Int == 0 && forwarding["failed"] as? Int == 0)
    }

    /// An upstream that hangs never holds up the client: the one sender waits on it,
    /// two requests wait in the queue, the rest are dropped and counted.
    @Test func aHangingUpstreamNeverBlocksTheClient() async throws {
        let upstream = try ForwardTarget(stalling: true)
        let report = Self.temporary("report.json")
        defer { try? FileManager.default.removeItem(atPath: report) }
        let inspector = try InspectorProcess([Fixtures.store, "--forward", "http://127.0.0.1:\(upstream.port)", "--forward-queue", "2", "--report-json", report])
        let call = Data(#"{"type":"track","event":"appOpened","messageId":"m","anonymousId":"a"}"#.utf8)
        let started = Date()
        for _ in 0..<20 { #expect(try await inspector.send("/v1/track", body: call).status == 200) }
        #expect(Date().timeIntervalSince(started) < 5, "each answer came without waiting on the upstream")
        let state = try await inspector.state()
        let totals = try #require(state["totals"] as? [String: Any])
        #expect((17...18).contains(totals["forwardDropped"] as? Int ?? -1), "\(totals)")
        let exit = try await inspector.stop(SIGTERM)
        #expect(exit.status == 0, "\(exit.stderr)")
        let forwarding = try #require(try Self.json(at: report)["forwarding"] as? [String: Any])
        #expect(forwarding["forwarded"] as? Int == 0)
        #expect((17...18).contains(forwarding["dropped"] as? Int ?? -1))
    }
}
#else
import Foundation
import Testing

/// Built without the Inspector trait, anna-inspect says how to enable it.
@Suite struct InspectorWithoutTraitTests {
    @Test func anInspectorWithoutTheTraitSaysWhatToEnable() throws {
        let process = Process()
        process.executableURL = InspectorProcess.executable
        process.arguments = ["spec.anna.yml"]
        let err = Pipe()
        process.standardError = err
        try process.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        #expect(text.contains("built without Anna's Inspector trait") && text.contains(#"traits: ["Inspector"]"#))
    }
}
#endif
