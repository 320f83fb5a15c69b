import Foundation
import Testing

/// `anna diff` run as CI runs it: one fixture pair per rule, with the exact output
/// in three formats and the exit status. `ANNA_RECORD_GOLDEN=1 swift test --filter
/// DiffTests` rewrites the expected files; review them before committing.
@Suite struct DiffTests {
    static let folder = AnnaTool.fixtures.appending(path: "diff", directoryHint: .isDirectory)
    static let recording = ProcessInfo.processInfo.environment["ANNA_RECORD_GOLDEN"] == "1"

    /// The fixtures whose change is compatible; every other one breaks something.
    static let compatibleCases: Set<String> = [
        "deprecation-added", "description-changed", "enum-value-added", "event-added", "event-removed-after-deprecation",
        "made-optional", "max-length-loosened", "parameter-added", "pattern-removed", "provider-added-met",
        "range-widened", "screen-added", "object-property-added", "object-type-added", "object-enum-value-added",
    ]

    static var cases: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { !$0.hasSuffix(".yml") }.sorted()
    }

    /// Compares with the expected file, or writes it when recording.
    static func expect(_ actual: String, matches file: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
        if recording {
            try actual.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(actual == expected, "\(file.lastPathComponent)", sourceLocation: sourceLocation)
    }

    @Test func everyRuleHasAFixture() {
        #expect(Self.cases.count >= 32)
    }

    @Test(arguments: cases) func fixturePair(_ name: String) throws {
        let directory = Self.folder.appending(path: name, directoryHint: .isDirectory)
        let text = try AnnaTool.run(["diff", "old.anna.yml", "new.anna.yml"], in: directory)
        #expect(text.stderr == "")
        try Self.expect(text.stdout, matches: directory.appending(path: "expected.txt"))
        let breaking = text.stdout.contains(": breaking: ")
        #expect(text.status == (breaking ? 1 : 0), "\(name)")
        #expect(breaking == !Self.compatibleCases.contains(name), "\(name)")

        let json = try AnnaTool.run(["diff", "old.anna.yml", "new.anna.yml", "--format", "json"], in: directory)
        #expect(json.status == text.status)
        try Self.expect(json.stdout, matches: directory.appending(path: "expected.json"))
        let decoded = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect((decoded?["breaking"] as? Int).map { $0 > 0 } == breaking)

        let allowed = try AnnaTool.run(["diff", "old.anna.yml", "new.anna.yml", "--allow-breaking"], in: directory)
        #expect(allowed.status == 0)
        #expect(allowed.stdout == text.stdout)
    }

    @Test func githubAnnotationsSitOnTheNewSpecsLines() throws {
        let directory = Self.folder.appending(path: "range-narrowed", directoryHint: .isDirectory)
        let result = try AnnaTool.run(["diff", "old.anna.yml", "new.anna.yml", "--format", "github"], in: directory)
        #expect(result.status == 1)
        #expect(result.stdout == """
            ::error file=new.anna.yml,line=16,col=7,title=Breaking tracking-plan change (constraint-tightened)::min of parameter 'price' of event 'productViewed' tightened from 0 to 1; values valid before are now violations
            ::error file=new.anna.yml,line=16,col=7,title=Breaking tracking-plan change (constraint-tightened)::max of parameter 'price' of event 'productViewed' tightened from 10000 to 5000; values valid before are now violations
            anna diff: 2 breaking changes, 0 compatible changes

            """)
        let compatible = try AnnaTool.run(
            ["diff", "old.anna.yml", "new.anna.yml", "--format", "github"],
            in: Self.folder.appending(path: "event-added", directoryHint: .isDirectory))
        #expect(compatible.status == 0)
        #expect(compatible.stdout.hasPrefix("::notice file=new.anna.yml,line=25,col=3,title=Tracking-plan change (event-added)::event 'wishlistOpened' added\n"))
    }

    @Test func aSpecAgainstItselfHasNoChanges() throws {
        let spec = AnnaTool.packageRoot.appending(path: "Examples/Shop/Sources/ShopAnalytics/shop.anna.yml").path
        let result = try AnnaTool.run(["diff", spec, spec])
        #expect(result.status == 0)
        #expect(result.stdout == "anna diff: no changes\n")
    }

    @Test func foldersArePairedByRelativePath() throws {
        let root = try AnnaTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let base = try String(contentsOf: Self.folder.appending(path: "base.anna.yml"), encoding: .utf8)
        for side in ["old", "new"] {
            try FileManager.default.createDirectory(at: root.appending(path: "\(side)/A"), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: root.appending(path: "\(side)/B"), withIntermediateDirectories: true)
            // Two specs with one name in two folders: each is paired with its own.
            try base.write(to: root.appending(path: "\(side)/A/store.anna.yml"), atomically: true, encoding: .utf8)
            try base.replacingOccurrences(of: "namespace: Store", with: "namespace: Other")
                .write(to: root.appending(path: "\(side)/B/store.anna.yml"), atomically: true, encoding: .utf8)
        }
        try base.replacingOccurrences(of: "      coupon: string?\n", with: "")
            .write(to: root.appending(path: "new/A/store.anna.yml"), atomically: true, encoding: .utf8)
        try base.write(to: root.appending(path: "new/added.anna.yml"), atomically: true, encoding: .utf8)
        let result = try AnnaTool.run(["diff", "old", "new"], in: root)
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "old/A/store.anna.yml:17:7: breaking: parameter 'coupon' removed from event 'productViewed' [parameter-removed] (major)")
        #expect(lines.filter { $0.hasPrefix("new/added.anna.yml:") }.count == 10)  // 4 events, 2 screens, 2 traits, 1 global, 1 type
        #expect(!lines.contains { $0.hasPrefix("new/B/") })
        #expect(lines.last == "anna diff: 1 breaking change, 10 compatible changes; the smallest version bump: major")
    }

    @Test func baseComparesWithAGitRevision() throws {
        let root = try AnnaTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        func git(_ arguments: String...) throws {
            let result = try AnnaTool.run(["-c", "user.name=CI", "-c", "user.email=ci@example.com"] + arguments, in: root, executable: URL(fileURLWithPath: "/usr/bin/git"))
            #expect(result.status == 0, "git \(arguments): \(result.stderr)")
        }
        try git("init", "-q")
        try FileManager.default.createDirectory(at: root.appending(path: "Specs"), withIntermediateDirectories: true)
        let base = try String(contentsOf: Self.folder.appending(path: "base.anna.yml"), encoding: .utf8)
        try base.write(to: root.appending(path: "Specs/store.anna.yml"), atomically: true, encoding: .utf8)
        try git("add", ".")
        try git("commit", "-q", "-m", "spec")
        let unchanged = try AnnaTool.run(["diff", "--base", "HEAD", "Specs"], in: root)
        #expect(unchanged.status == 0, "\(unchanged.stderr)")
        #expect(unchanged.stdout == "anna diff: no changes\n")

        try base.replacingOccurrences(of: "      items: int\n", with: "      items: double\n")
            .write(to: root.appending(path: "Specs/store.anna.yml"), atomically: true, encoding: .utf8)
        for path in ["Specs", "Specs/store.anna.yml"] {
            let changed = try AnnaTool.run(["diff", "--base", "HEAD", path], in: root)
            #expect(changed.status == 1, "\(changed.stderr)")
            #expect(changed.stdout.hasPrefix("Specs/store.anna.yml:30:7: breaking: parameter 'items' of event 'checkoutStarted' changed type from int to double [type-changed] (major)\n"))
        }
        let unknown = try AnnaTool.run(["diff", "--base", "no-such-rev", "Specs"], in: root)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.hasPrefix("anna diff: error: git ls-tree -r --name-only no-such-rev . failed in Specs:"))
    }

    /// Issue 54: a spec that declares `version:` is held to its changes. The plan's
    /// version and each changed event's own must be at least the smallest bump the
    /// changes need; a lower one fails at its line and column, even with
    /// `--allow-breaking`.
    @Test func aDeclaredVersionLowerThanTheChangesNeedFailsWhereItIsWritten() throws {
        let root = try AnnaTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        func git(_ arguments: String...) throws {
            let result = try AnnaTool.run(["-c", "user.name=CI", "-c", "user.email=ci@example.com"] + arguments, in: root, executable: URL(fileURLWithPath: "/usr/bin/git"))
            #expect(result.status == 0, "git \(arguments): \(result.stderr)")
        }
        try git("init", "-q")
        let base = try String(contentsOf: Self.folder.appending(path: "base.anna.yml"), encoding: .utf8)
            .replacingOccurrences(of: "anna: 1\n", with: "anna: 1\nversion: 2.3.0\n")
        let spec = root.appending(path: "store.anna.yml")
        try base.write(to: spec, atomically: true, encoding: .utf8)
        try git("add", ".")
        try git("commit", "-q", "-m", "2.3.0")

        // A breaking change with no bump: both the plan and the event fail.
        let removed = base.replacingOccurrences(of: "      coupon: string?\n", with: "")
        try removed.write(to: spec, atomically: true, encoding: .utf8)
        for flags in [[], ["--allow-breaking"]] {
            let result = try AnnaTool.run(["diff", "--base", "HEAD", "store.anna.yml"] + flags, in: root)
            #expect(result.status == 1, "\(flags): a version too low fails even when breaking changes are allowed")
            #expect(result.stdout.contains("""
                store.anna.yml:3:10: error: `productViewed.coupon` removed: a breaking change; version 2.3.0 needs at least 3.0.0 (it was 2.3.0)
                """), "\(result.stdout)")
            #expect(result.stdout.contains("""
                store.anna.yml:13:3: error: `productViewed.coupon` removed: a breaking change; the version of event 'productViewed', 1.0.0, needs at least 2.0.0 (add version: 2.0.0 under it)
                """), "\(result.stdout)")
        }
        let json = try AnnaTool.run(["diff", "--base", "HEAD", "store.anna.yml", "--format", "json"], in: root)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(report["bump"] as? String == "major")
        #expect((report["versionErrors"] as? [[String: Any]])?.map { $0["line"] as? Int } == [3, 13])
        let github = try AnnaTool.run(["diff", "--base", "HEAD", "store.anna.yml", "--format", "github"], in: root)
        #expect(github.stdout.contains("::error file=store.anna.yml,line=3,col=10,title=Tracking-plan version too low::"))

        // The bumps it asks for: then only the breaking change itself fails, and is allowed.
        let bumped = removed.replacingOccurrences(of: "version: 2.3.0", with: "version: 3.0.0")
            .replacingOccurrences(of: "    description: A product page was opened.\n", with: "    version: 2.0.0\n    description: A product page was opened.\n")
        try bumped.write(to: spec, atomically: true, encoding: .utf8)
        let allowed = try AnnaTool.run(["diff", "--base", "HEAD", "store.anna.yml", "--allow-breaking"], in: root)
        #expect(allowed.status == 0, "\(allowed.stdout)")
        #expect(!allowed.stdout.contains(": error: "))

        // An added optional parameter is the smallest bump: a patch, for the plan and the event.
        let added = base.replacingOccurrences(of: "      coupon: string?\n", with: "      coupon: string?\n      referrer: string?\n")
        try added.write(to: spec, atomically: true, encoding: .utf8)
        let unbumped = try AnnaTool.run(["diff", "--base", "HEAD", "store.anna.yml"], in: root)
        #expect(unbumped.status == 1)
        #expect(unbumped.stdout.contains("store.anna.yml:3:10: error: `productViewed.referrer` added: a patch change; version 2.3.0 needs at least 2.3.1 (it was 2.3.0)"), "\(unbumped.stdout)")
        #expect(unbumped.stdout.hasSuffix("the smallest version bump: patch\n"))
        try added.replacingOccurrences(of: "version: 2.3.0", with: "version: 2.4.0")
            .replacingOccurrences(of: "    description: A product page was opened.\n", with: "    version: 1.0.1\n    description: A product page was opened.\n")
            .write(to: spec, atomically: true, encoding: .utf8)
        let patched = try AnnaTool.run(["diff", "--base", "HEAD", "store.anna.yml"], in: root)
        #expect(patched.status == 0, "\(patched.stdout)")

        // A bad version is refused at its place, as any invalid spec.
        try base.replacingOccurrences(of: "version: 2.3.0", with: "version: 2.3").write(to: spec, atomically: true, encoding: .utf8)
        let invalid = try AnnaTool.run(["diff", "--base", "HEAD", "store.anna.yml"], in: root)
        #expect(invalid.status == 2)
        #expect(invalid.stderr.contains("store.anna.yml:3:10: error: the version of the plan must be MAJOR.MINOR.PATCH, e.g. 1.2.0, not '2.3'"), "\(invalid.stderr)")
    }

    @Test func anInvalidSpecIsAnInputErrorWithItsLocation() throws {
        let root = try AnnaTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let base = try String(contentsOf: Self.folder.appending(path: "base.anna.yml"), encoding: .utf8)
        try base.write(to: root.appending(path: "old.anna.yml"), atomically: true, encoding: .utf8)
        try base.replacingOccurrences(of: "      items: int\n", with: "      items: integer\n")
            .write(to: root.appending(path: "new.anna.yml"), atomically: true, encoding: .utf8)
        let result = try AnnaTool.run(["diff", "old.anna.yml", "new.anna.yml"], in: root)
        #expect(result.status == 2)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("new.anna.yml:30:14: error: unknown type 'integer'"))
        #expect(result.stderr.hasSuffix("anna diff: error: a compared spec is invalid; fix it (anna lint) and run the diff again\n"))

        let missing = try AnnaTool.run(["diff", "old.anna.yml", "gone.anna.yml"], in: root)
        #expect(missing.status == 2)
        #expect(missing.stderr == "anna diff: error: cannot read gone.anna.yml; check that it exists and is readable\n")
        let mixed = try AnnaTool.run(["diff", "old.anna.yml", "."], in: root)
        #expect(mixed.status == 2)
        let one = try AnnaTool.run(["diff", "old.anna.yml"], in: root)
        #expect(one.status == 2)
    }
}
