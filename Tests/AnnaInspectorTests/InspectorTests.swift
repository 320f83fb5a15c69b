import Foundation
import Testing
@testable import _AnnaInspector

/// The inspector without its server: requests in, answers and records out.
@Suite struct InspectorTests {
    static func request(_ body: String, path: String = "/v1/batch", type: String? = "application/json", encoding: String? = nil) -> Inspector.Request {
        Inspector.Request(method: "POST", path: path, contentType: type, contentEncoding: encoding, body: Array(body.utf8))
    }

    static let ids = CallCheckerTests.ids

    @Test func answersAsSegmentAndRefusesWithClearMessages() throws {
        let inspector = Inspector(plan: try Fixtures.plan())
        #expect(inspector.ingest(Self.request(#"{"batch":[{"type":"track","event":"appOpened","# + Self.ids + "}]}")) == .init(status: 200, body: #"{"success":true}"#))
        #expect(inspector.ingest(Self.request(#"{"event":"appOpened","# + Self.ids + "}", path: "/v1/track")).status == 200)
        let notJSON = inspector.ingest(Self.request("{"))
        #expect(notJSON.status == 400 && notJSON.body.contains("the body is not JSON"))
        #expect(inspector.ingest(Self.request("{}")).status == 400)
        #expect(inspector.ingest(Self.request("{}", type: "application/x-www-form-urlencoded")).status == 415)
        #expect(inspector.ingest(Self.request("{}", type: nil)).status == 415)
        #expect(inspector.ingest(Self.request("{}", encoding: "br")).status == 415)
        let badGzip = inspector.ingest(Self.request("not gzip", encoding: "gzip"))
        #expect(badGzip.status == 400 && badGzip.body.contains("not valid gzip"))
        #expect(inspector.ingest(Self.request("{}", path: "/v1/nothing")).status == 404)
        #expect(inspector.ingest(Inspector.Request(method: "PUT", path: "/v1/batch", contentType: "application/json", contentEncoding: nil, body: [])).status == 405)
        let log = inspector.log
        #expect(log.totals.calls == 2 && log.totals.validCalls == 2)
        #expect(log.totals.rejectedRequests == 8 && log.totals.requests == 10)
        #expect(log.recent.map(\.status.rawValue).suffix(2) == ["rejected", "rejected"])
    }

    @Test func gzipBodiesAndZipBombs() throws {
        var limits = InspectorLimits()
        limits.maximumBody = 64 * 1024
        let inspector = Inspector(plan: try Fixtures.plan(), limits: limits)
        let body = Data((#"{"batch":[{"type":"track","event":"appOpened","# + Self.ids + "}]}").utf8)
        let compressed = try gzipped(body)
        #expect(inspector.ingest(.init(method: "POST", path: "/v1/batch", contentType: "application/json", contentEncoding: "gzip", body: Array(compressed))).status == 200)
        // 10 MB of spaces gzip to about 10 KB, under the limit as sent, far over it inflated.
        let bomb = try gzipped(Data(repeating: 0x20, count: 10_000_000))
        #expect(bomb.count < limits.maximumBody)
        let answer = inspector.ingest(.init(method: "POST", path: "/v1/batch", contentType: "application/json", contentEncoding: "gzip", body: Array(bomb)))
        #expect(answer.status == 413 && answer.body.contains("inflates past the limit"))
        let large = inspector.ingest(.init(method: "POST", path: "/v1/batch", contentType: "application/json", contentEncoding: nil, body: [UInt8](repeating: 0x20, count: limits.maximumBody + 1)))
        #expect(large.status == 413)
    }

    /// Segment's API refuses a call over 32 KB; the inspector says so for each, in a
    /// batch too (where the request itself may be far larger).
    @Test func aCallOverSegmentsLimitIsAFinding() throws {
        let inspector = Inspector(plan: try Fixtures.plan())
        let padding = String(repeating: "x", count: CallChecker.maximumCallBytes)
        let big = #"{"type":"track","event":"appOpened","context":{"pad":""# + padding + #""},"# + Self.ids + "}"
        let small = #"{"type":"track","event":"appOpened","# + Self.ids + "}"
        #expect(inspector.ingest(Self.request(#"{"batch":["# + small + "," + big + "]}")).status == 200)
        let records = inspector.log.recent
        #expect(records.count == 2)
        let sizeFindings = records.map { $0.findings.filter { $0.expected.contains("at most 32 KB") } }
        #expect(sizeFindings[0].isEmpty)
        #expect(sizeFindings[1].count == 1 && sizeFindings[1].first?.rule == .callShape)
        #expect(sizeFindings[1].first?.actual == "\(big.utf8.count) bytes")
    }

    @Test func memoryIsBoundedByTheLimits() throws {
        var limits = InspectorLimits()
        limits.recentCalls = 10
        limits.maximumNames = 5
        limits.maximumFindings = 3
        let inspector = Inspector(plan: try Fixtures.plan(), limits: limits)
        for index in 0..<1_000 {
            _ = inspector.ingest(Self.request(#"{"batch":[{"type":"track","event":"unknown\#(index)","# + Self.ids + "}]}"))
        }
        let log = inspector.log
        #expect(log.recent.count == 10 && log.recent.first?.id == 991 && log.recent.last?.id == 1_000)
        #expect(log.totals.callsNotKept == 990 && log.totals.calls == 1_000 && log.totals.errors == 1_000)
        #expect(log.table.count == 6 && log.table.last?.type == "(other)" && log.table.last?.seen == 995)
        #expect(log.findings.count == 3 && log.totals.findingsNotKept == 997)
        #expect(inspector.call(id: 995)?.name == "unknown994" && inspector.call(id: 5) == nil)
    }

    @Test func reportsNameTheSpecLines() throws {
        let plan = try Fixtures.plan()
        let inspector = Inspector(plan: plan)
        _ = inspector.ingest(Self.request(#"{"batch":[{"type":"track","event":"orderPlaced","properties":{"orderID":"o","total":"1","delivery":"express","items":[]},"# + Self.ids + #"},{"type":"track","event":"legacyCheckout","# + Self.ids + "}]}"))
        let report = InspectionReport(log: inspector.log, plan: plan, required: ["appOpened", "orderPlaced"], failOnWarnings: false)
        #expect(!report.passed && report.exitCode == 1)
        #expect(report.coverage.missingRequired.map(\.name) == ["appOpened"])
        #expect(report.githubAnnotations() == """
            ::error file=store.anna.yml,line=19,col=7,title=anna inspect%3A wrong-type::track "orderPlaced" properties.total: expected a number (double), got "1"
            ::warning file=store.anna.yml,line=27,col=3,title=anna inspect%3A deprecated::track "legacyCheckout": expected no deprecated event (Use orderPlaced instead.), got a call
            ::error file=store.anna.yml,line=29,col=3,title=anna inspect%3A not-seen::event 'appOpened' must be covered by this run but was never seen

            """)
        // A spec given by its absolute path is annotated from the working directory, as
        // GitHub places annotations by their path in the repository.
        let absolute = InspectionReport(
            log: inspector.log, plan: try Fixtures.plan(file: "/repo/Specs/store.anna.yml"), required: ["appOpened"], failOnWarnings: false)
        #expect(absolute.githubAnnotations(relativeTo: "/repo").contains("::error file=Specs/store.anna.yml,line=29,col=3,"))
        #expect(absolute.githubAnnotations(relativeTo: "/elsewhere").contains("::error file=/repo/Specs/store.anna.yml,line=29,col=3,"))
        let junit = report.junit()
        #expect(junit.contains(#"<testcase classname="anna-inspect.calls" name="track &quot;orderPlaced&quot;">"#))
        #expect(junit.contains(#"<testcase classname="anna-inspect.coverage" name="covers orderPlaced"/>"#))
        #expect(junit.contains("store.anna.yml:29:3: event &apos;appOpened&apos; was never seen"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.json().utf8)) as? [String: Any])
        #expect(json["passed"] as? Bool == false)
        let first = try #require((json["findings"] as? [[String: Any]])?.first)
        #expect(first["file"] as? String == "store.anna.yml" && first["line"] as? Int == 19 && first["column"] as? Int == 7)
        // Only the warning left: passes, unless warnings fail.
        let clean = Inspector(plan: plan)
        _ = clean.ingest(Self.request(#"{"batch":[{"type":"track","event":"legacyCheckout","# + Self.ids + "}]}"))
        #expect(InspectionReport(log: clean.log, plan: plan, required: nil, failOnWarnings: false).passed)
        #expect(!InspectionReport(log: clean.log, plan: plan, required: nil, failOnWarnings: true).passed)
        #expect(!InspectionReport(log: clean.log, plan: plan, required: [], failOnWarnings: false).passed)
    }
}
