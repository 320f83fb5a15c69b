import Foundation
import Testing
@testable import _AnnaInspector

/// The request and validation path under malformed, deep, huge and hostile input: no
/// crash, no hang (a time limit), memory bounded by the limits.
@Suite struct InspectorFuzzTests {
    /// A small deterministic generator, so a failure repeats.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let seeds: [String] = [
        #"{"batch":[{"type":"track","event":"orderPlaced","properties":{"orderID":"o","total":1,"delivery":"express","items":[{"sku":"ABC-1","price":1,"quantity":1}]},"messageId":"m","anonymousId":"a","timestamp":"2026-01-01T00:00:00Z"}]}"#,
        #"{"batch":[{"type":"identify","traits":{"email":"x","loyaltyTier":"gold"},"userId":"u"},{"type":"screen","name":"Cart","properties":{"itemCount":1}}]}"#,
        #"{"type":"group","groupId":"g","traits":{"seats":3}}"#,
    ]

    @Test(.timeLimit(.minutes(10))) func mutatedBodiesNeverCrashOrHang() throws {
        var limits = InspectorLimits()
        limits.recentCalls = 50
        let inspector = Inspector(plan: try Fixtures.plan(), limits: limits)
        var random = SplitMix(state: 35)
        let alphabet = Array(#"{}[]":,.-+0123456789eEtrufalsn\ u"#.utf8) + [0x00, 0xFF, 0xC3, 0x80]
        for round in 0..<20_000 {
            var bytes = Array(Self.seeds[round % Self.seeds.count].utf8)
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                guard !bytes.isEmpty else { break }
                let index = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0: bytes[index] = alphabet.randomElement(using: &random) ?? 0
                case 1: bytes.remove(at: index)
                case 2: bytes.insert(alphabet.randomElement(using: &random) ?? 0, at: index)
                default: bytes.insert(contentsOf: bytes[index..<min(bytes.count, index + 16)], at: index)
                }
            }
            let path = round % 7 == 0 ? "/v1/track" : "/v1/batch"
            let answer = inspector.ingest(.init(method: "POST", path: path, contentType: "application/json", contentEncoding: nil, body: bytes))
            #expect(answer.status == 200 || answer.status == 400)
        }
        let log = inspector.log
        #expect(log.recent.count == 50)
        #expect(log.totals.requests == 20_000)
    }

    @Test(.timeLimit(.minutes(10))) func deepHugeAndHostileBodies() throws {
        let inspector = Inspector(plan: try Fixtures.plan())
        func send(_ body: [UInt8], path: String = "/v1/batch") -> Int {
            inspector.ingest(.init(method: "POST", path: path, contentType: "application/json", contentEncoding: nil, body: body)).status
        }
        // Nesting far past the parser's depth, in arrays and objects.
        #expect(send(Array((String(repeating: "[", count: 200_000)).utf8)) == 400)
        #expect(send(Array((#"{"batch":["# + String(repeating: #"{"a":"#, count: 10_000) + "1" + String(repeating: "}", count: 10_000) + "]}").utf8)) == 400)
        // Deep but allowed nesting inside a property declared as an object list.
        let nested = String(repeating: #"{"x":"#, count: 50) + "1" + String(repeating: "}", count: 50)
        #expect(send(Array((#"{"batch":[{"type":"track","event":"orderPlaced","properties":{"items":[\#(nested)]},"anonymousId":"a"}]}"#).utf8)) == 200)
        // Many calls in one batch, each checked; a long string against a pattern.
        let many = "{\"batch\":[" + Array(repeating: #"{"type":"track","event":"orderPlaced","properties":{"items":[{"sku":"\#(String(repeating: "A", count: 5_000))","price":1,"quantity":1}]},"anonymousId":"a"}"#, count: 80).joined(separator: ",") + "]}"
        #expect(many.utf8.count < 512 * 1024)
        #expect(send(Array(many.utf8)) == 200)
        // Hostile names and values are data.
        #expect(send(Array((#"{"batch":[{"type":"track","event":"<script>alert(1)</script>","properties":{"</script>":"\u0000"},"anonymousId":"a"}]}"#).utf8)) == 200)
        let record = try #require(inspector.log.recent.last)
        var out: [UInt8] = []
        record.writeJSON(into: &out, includingJSON: true)
        let text = String(decoding: out, as: UTF8.self)
        #expect(!text.contains("<") && !text.contains(">"))
        #expect(Inspector.serverSentEvent([record]).filter { $0 == 0x0A }.count == 3, "one event, one data line")
    }
}
