// anna-inspect serves only with the Inspector trait (`swift test --traits Inspector`).
#if Inspector
import Anna
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `anna inspect` across plan versions (issue 54): a real anna-inspect on loopback
/// with a released 1.0.0 (`--plan-versions`) and the current 2.0.0, fed Segment
/// batches over HTTP whose calls carry `context.plan` as the generated clients stamp
/// it. Version 2.0.0 removes `songPlayed.quality`, retypes `songPlayed.position`
/// (int to string) and adds `playlistCreated`.
@Suite(.serialized, .timeLimit(.minutes(10))) struct InspectorVersionsTests {
    static let version1 = """
        anna: 1
        namespace: Music
        version: 1.0.0
        events:
          songPlayed:
            parameters:
              songID: string
              quality: string
              position: int
          appOpened:
            description: The app came to the foreground.

        """

    static let version2 = """
        anna: 1
        namespace: Music
        version: 2.0.0
        events:
          songPlayed:
            version: 2.0.0
            parameters:
              songID: string
              position: string
          appOpened:
            description: The app came to the foreground.
          playlistCreated:
            parameters:
              title: string

        """

    /// A folder with `music.anna.yml` (2.0.0) and `released/1.0.0/music.anna.yml`.
    static func plans() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appending(path: "anna-inspect-versions-\(UUID().uuidString)")
        let released = folder.appending(path: "released/1.0.0")
        try FileManager.default.createDirectory(at: released, withIntermediateDirectories: true)
        try version1.write(to: released.appending(path: "music.anna.yml"), atomically: true, encoding: .utf8)
        try version2.write(to: folder.appending(path: "music.anna.yml"), atomically: true, encoding: .utf8)
        return folder
    }

    /// One call as Segment's HTTP API takes it; `plan` is `context.plan`'s version, if any.
    static func call(_ event: String, _ properties: String, plan version: String?, eventVersion: String = "1.0.0", id: Int) -> String {
        let plan = version.map { #","plan":{"name":"Music","version":"\#($0)","eventVersion":"\#(eventVersion)"}"# } ?? ""
        return #"{"type":"track","event":"\#(event)","properties":{\#(properties)},"messageId":"m-\#(id)","anonymousId":"a-1","timestamp":"2026-12-02T05:00:00Z","context":{"library":{"name":"anna-swift"}\#(plan)}}"#
    }

    /// The calls: what a 1.0.0 app, a 2.0.0 app, an app naming a version no one
    /// released, and hand-written code send.
    static let batches: [[String]] = [
        [  // an app built from 1.0.0
            call("songPlayed", #""songID":"s-1","quality":"high","position":3"#, plan: "1.0.0", id: 1),
            call("appOpened", "", plan: "1.0.0", id: 2),
            call("songPlayed", #""songID":"s-2","quality":"low","position":"0:42""#, plan: "1.0.0", id: 3),
        ],
        [  // an app built from 2.0.0
            call("songPlayed", #""songID":"s-3","position":"0:42""#, plan: "2.0.0", eventVersion: "2.0.0", id: 4),
            call("playlistCreated", #""title":"Runs""#, plan: "2.0.0", id: 5),
            call("songPlayed", #""songID":"s-4","quality":"high","position":"1:00""#, plan: "2.0.0", eventVersion: "2.0.0", id: 6),
        ],
        [  // a version never released, and no version at all
            call("songPlayed", #""songID":"s-5","position":"0:01""#, plan: "3.1.0", id: 7),
            call("songPlayed", #""songID":"s-6","position":"2:00""#, plan: nil, id: 8),
            call("songPlayed", #""songID":"s-7","quality":"high","position":4"#, plan: nil, id: 9),
        ],
    ]

    struct Run {
        var json: [String: Any]
        var junit: String
        var annotations: String
        var summary: String
        var status: Int32
        var dom: String?
    }

    /// Runs anna-inspect on the two versions, posts the batches, opens the page in
    /// Chromium when it is installed, and stops it for its reports.
    static func run() async throws -> Run {
        let folder = try plans()
        defer { try? FileManager.default.removeItem(at: folder) }
        let inspector = try InspectorProcess(
            ["music.anna.yml", "--plan-versions", "released", "--report-json", "report.json", "--report-junit", "report.xml", "--github-annotations"],
            in: folder)
        for batch in batches {
            let body = #"{"batch":[\#(batch.joined(separator: ","))],"sentAt":"2026-12-02T05:00:01Z"}"#
            #expect(try await inspector.send("/v1/batch", body: Data(body.utf8)).status == 200)
        }
        var dom: String?
        if Browser.path != nil {
            // `#wait=9` holds the page's load event until the nine calls are in.
            let (browser, out) = try Browser.start(["--dump-dom", inspector.address.absoluteString + "/#wait=9&seconds=240"])
            dom = try await Browser.finish(browser, out, timeout: 240)
        }
        let exit = try await inspector.stop(SIGTERM)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appending(path: "report.json"))) as? [String: Any] ?? [:]
        let junit = try String(contentsOf: folder.appending(path: "report.xml"), encoding: .utf8)
        let summary = exit.stderr.split(separator: "\n").last.map(String.init) ?? ""
        return Run(json: json, junit: junit, annotations: exit.stdout, summary: summary, status: exit.status, dom: dom)
    }

    /// `version rule path` for each finding of the JSON report.
    static func findings(_ json: [String: Any]) -> [String] {
        (json["findings"] as? [[String: Any]] ?? []).map {
            "\($0["version"] as? String ?? "-") \($0["severity"] as? String ?? "") \($0["rule"] as? String ?? "") \($0["path"] as? String ?? "")"
        }.sorted()
    }

    /// A real client: Anna's `DurableProvider` sends events whose metadata names the
    /// plan version (as the generated factories of a versioned plan attach it), the
    /// Segment wire carries it as `context.plan`, and the inspector checks each call by
    /// the version it names.
    @Test func aDurableProvidersCallsAreCheckedByTheVersionTheyName() async throws {
        let folder = try Self.plans()
        defer { try? FileManager.default.removeItem(at: folder) }
        let inspector = try InspectorProcess(["music.anna.yml", "--plan-versions", "released", "--report-json", "report.json"], in: folder)
        let provider = try DurableProvider(
            endpoint: inspector.address.appending(path: "v1/batch"), writeKey: "k", storage: .memory(limit: 1 << 20))
        func event(_ name: String, _ parameters: [String: AnalyticsValue], _ version: String, _ eventVersion: String) -> AnalyticsEvent {
            AnalyticsEvent(
                name: name, parameters: parameters,
                metadata: .init(plan: AnalyticsEvent.PlanReference(name: "Music", version: version, eventVersion: eventVersion)))
        }
        let events = [
            event("songPlayed", ["songID": "s-1", "quality": "high", "position": 3], "1.0.0", "1.0.0"),
            event("songPlayed", ["songID": "s-2", "position": "0:42"], "2.0.0", "2.0.0"),
            event("playlistCreated", ["title": "Runs"], "2.0.0", "1.0.0"),
        ]
        var context = AnalyticsContext(os: .init(name: "Linux", version: "6"))
        context.planBranch = "main"
        try await provider.receive(events.map { AnalyticsEnvelope(event: $0, messageID: UUID(), timestamp: Date(), anonymousID: "a-1", context: context) })
        try await provider.flush()
        await provider.shutdown()
        #expect(provider.metrics.delivered == 3)
        _ = try await inspector.stop(SIGTERM)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appending(path: "report.json"))) as? [String: Any] ?? [:]
        #expect(Self.findings(json) == ["1.0.0 information superseded-version context.plan.version"], "each call fits the version it names")
    }

    @Test func eachCallIsCheckedByItsOwnVersionAndEveryReportGroupsByVersion() async throws {
        let run = try await Self.run()
        #expect(run.status == 1, "an unknown version and three wrong calls fail the gate: \(run.summary)")

        // Each call by its own version: 1.0.0's quality and int position fit 1.0.0 (no
        // error), its string position does not; 2.0.0's quality is undeclared there; an
        // unversioned call is checked against 2.0.0 (the newest); 3.1.0 is unknown.
        #expect(Self.findings(run.json) == [
            "1.0.0 error wrong-type properties.position",
            "1.0.0 information superseded-version context.plan.version",
            "2.0.0 error unexpected-property properties.quality",
            "3.1.0 (unknown) error unknown-version context.plan.version",
            "unversioned error unexpected-property properties.quality",
            "unversioned error wrong-type properties.position",
            "unversioned information unversioned context.plan",
        ])
        let entries = run.json["findings"] as? [[String: Any]] ?? []
        let superseded = try #require(entries.first { $0["rule"] as? String == "superseded-version" })
        #expect(superseded["call"] as? String == #"track "songPlayed""#)
        #expect(superseded["count"] as? Int == 2, "both 1.0.0 songPlayed calls")
        #expect((superseded["actual"] as? String ?? "").contains("version 1.0.0, changed in 2.0.0 (event version 1.0.0 → 2.0.0)"))
        let unknown = try #require(entries.first { $0["rule"] as? String == "unknown-version" })
        #expect(unknown["expected"] as? String == "a known plan version: 1.0.0, 2.0.0")
        #expect(unknown["actual"] as? String == #""3.1.0""#)
        #expect(entries.first { $0["rule"] as? String == "unversioned" }?["count"] as? Int == 2)
        // The 1.0.0 call that fits 1.0.0 and names an event 2.0.0 changed is valid, with information only.
        let rows = run.json["calls"] as? [[String: Any]] ?? []
        func row(_ name: String, _ version: String) -> [String: Any]? {
            rows.first { $0["name"] as? String == name && $0["version"] as? String == version }
        }
        #expect(row("songPlayed", "1.0.0")?["valid"] as? Int == 1 && row("songPlayed", "1.0.0")?["invalid"] as? Int == 1)
        #expect(row("appOpened", "1.0.0")?["valid"] as? Int == 1)
        #expect(row("playlistCreated", "2.0.0")?["valid"] as? Int == 1)
        #expect(row("songPlayed", "unversioned")?["seen"] as? Int == 2)

        // JSON: a group per version, with its counts and its own coverage.
        let groups = run.json["versions"] as? [[String: Any]] ?? []
        #expect(groups.map { $0["version"] as? String ?? "" } == ["1.0.0", "2.0.0", "3.1.0 (unknown)", "unversioned"])
        func group(_ version: String) -> [String: Any] { groups.first { $0["version"] as? String == version } ?? [:] }
        #expect(group("1.0.0")["calls"] as? Int == 3 && group("1.0.0")["invalidCalls"] as? Int == 1 && group("1.0.0")["errors"] as? Int == 1)
        #expect(group("1.0.0")["information"] as? Int == 2 && group("1.0.0")["newest"] as? Bool == false)
        #expect(group("2.0.0")["calls"] as? Int == 3 && group("2.0.0")["invalidCalls"] as? Int == 1 && group("2.0.0")["newest"] as? Bool == true)
        #expect(group("3.1.0 (unknown)")["known"] as? Bool == false && group("3.1.0 (unknown)")["invalidCalls"] as? Int == 1)
        #expect(group("unversioned")["calls"] as? Int == 2 && group("unversioned")["information"] as? Int == 2)
        let coverage1 = group("1.0.0")["coverage"] as? [String: Any] ?? [:]
        #expect(coverage1["declared"] as? Int == 2 && coverage1["seen"] as? Int == 2)
        let coverage2 = group("2.0.0")["coverage"] as? [String: Any] ?? [:]
        #expect(coverage2["declared"] as? Int == 3 && coverage2["seen"] as? Int == 2)
        #expect((coverage2["notSeen"] as? [[String: Any]])?.map { $0["name"] as? String } == ["appOpened"])
        #expect((run.json["totals"] as? [String: Any])?["information"] as? Int == 4)

        // JUnit: a test suite per version; information is no failure.
        for suite in ["1.0.0", "2.0.0", "3.1.0 (unknown)", "unversioned"] {
            #expect(run.junit.contains(#"<testsuite name="anna inspect \#(suite)""#), "\(run.junit)")
        }
        let suite1 = try #require(run.junit.components(separatedBy: #"<testsuite name="anna inspect 1.0.0""#).dropFirst().first?.components(separatedBy: "</testsuite>").first)
        #expect(suite1.contains(#"tests="2" failures="1""#) && suite1.contains("properties.position: expected an integer (int)"))
        #expect(!suite1.contains("superseded"))
        #expect(run.junit.contains(#"<testcase classname="anna-inspect.calls" name="track &quot;playlistCreated&quot;"/>"#))

        // GitHub: each annotation names its version; information is a notice.
        let lines = run.annotations.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("::notice file=released/1.0.0/music.anna.yml,line=5,col=3,title=anna inspect 1.0.0%3A superseded-version::[plan 1.0.0] track \"songPlayed\"") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("::error title=anna inspect 3.1.0 (unknown)%3A unknown-version::[plan 3.1.0 (unknown)]") })
        #expect(lines.contains { $0.hasPrefix("::error file=released/1.0.0/music.anna.yml,line=9,col=7,title=anna inspect 1.0.0%3A wrong-type::") })
        #expect(lines.contains { $0.hasPrefix("::error file=music.anna.yml,line=9,col=7,title=anna inspect unversioned%3A wrong-type::") })
        #expect(lines.contains { $0.hasPrefix("::notice title=anna inspect unversioned%3A unversioned::") })
        #expect(run.summary.contains("calls by plan version: 1.0.0 3 (1 invalid), 2.0.0 3 (1 invalid), 3.1.0 (unknown) 1 (1 invalid), unversioned 2 (1 invalid)"), "\(run.summary)")

        // The page: each call shows its version; the table and coverage are grouped by version.
        guard let dom = run.dom else { return }
        #expect(dom.contains(#"<span id="total-calls" class="count">9 calls</span>"#) || dom.contains(#"<span class="count" id="total-calls">9 calls</span>"#), "\(dom)")
        for version in ["1.0.0", "2.0.0", "3.1.0 (unknown)", "unversioned"] {
            #expect(dom.contains(#"<tr class="group" data-version="\#(version)"><td colspan="5">Version \#(version)</td></tr>"#), "\(version)")
            #expect(dom.contains(#"<span class="version">\#(version)</span>"#))
        }
        #expect(dom.contains(#"<li class="group" data-version="1.0.0">Version 1.0.0: 2 of 2 seen</li>"#))
        #expect(dom.contains(#"<li class="group" data-version="2.0.0">Version 2.0.0 (newest): 2 of 3 seen</li>"#))
        #expect(dom.contains(#"<li data-name="appOpened" data-version="2.0.0">event appOpened"#))
        #expect(dom.contains(#"data-rule="superseded-version""#))
    }

    /// `--plan-ref`: a git tag's version of the spec given is a version, read as `anna
    /// diff --base` reads it.
    @Test func aGitRevisionIsOneMoreVersion() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "anna-inspect-ref-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func git(_ arguments: [String]) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["git", "-c", "user.name=Anna", "-c", "user.email=anna@example.com", "-c", "commit.gpgsign=false"] + arguments
            process.currentDirectoryURL = folder
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "git \(arguments)")
        }
        let spec = folder.appending(path: "music.anna.yml")
        try git(["init", "-q"])
        try Self.version1.write(to: spec, atomically: true, encoding: .utf8)
        try git(["add", "music.anna.yml"])
        try git(["commit", "-q", "-m", "1.0.0"])
        try git(["tag", "v1.0.0"])
        try Self.version2.write(to: spec, atomically: true, encoding: .utf8)
        let inspector = try InspectorProcess(["music.anna.yml", "--plan-ref", "v1.0.0", "--report-json", "report.json"], in: folder)
        let calls = [Self.batches[0][0], Self.batches[1][0], Self.batches[1][1]]
        #expect(try await inspector.send("/v1/batch", body: Data(#"{"batch":[\#(calls.joined(separator: ","))]}"#.utf8)).status == 200)
        let exit = try await inspector.stop(SIGTERM)
        #expect(exit.status == 0, "\(exit.stderr)")
        #expect(exit.stderr.contains("plan versions 1.0.0, 2.0.0"))
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appending(path: "report.json"))) as? [String: Any] ?? [:]
        #expect(Self.findings(json) == ["1.0.0 information superseded-version context.plan.version"])
        let finding = (json["findings"] as? [[String: Any]])?.first
        #expect(finding?["file"] as? String == "v1.0.0:music.anna.yml" && finding?["line"] as? Int == 5)
        #expect((json["versions"] as? [[String: Any]])?.map { "\($0["version"] ?? "") \($0["calls"] ?? "")" } == ["1.0.0 1", "2.0.0 2"])
    }
}
#endif
