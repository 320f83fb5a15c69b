// anna-coverage reads Swift only with Anna's `Coverage` trait (TraitAdviceTests cover it without).
#if Coverage
import Foundation
import Testing

/// `anna coverage` on a fixture package (read, never built) and on the example, run
/// as `anna coverage`, which starts `anna-coverage` from beside it.
/// `ANNA_RECORD_GOLDEN=1` rewrites the expected files.
@Suite struct CoverageTests {
    static let folder = AnnaTool.fixtures.appending(path: "coverage", directoryHint: .isDirectory)

    @Test(arguments: [("text", "expected.txt"), ("json", "expected.json")])
    func fixturePackage(_ format: String, _ expected: String) throws {
        let result = try AnnaTool.run(["coverage", "--package", "SamplePackage", "--format", format], in: Self.folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "")
        try DiffTests.expect(result.stdout, matches: Self.folder.appending(path: expected))
    }

    @Test func whatTheFixtureShows() throws {
        let result = try AnnaTool.run(["coverage", "--package", "SamplePackage", "--format", "json"], in: Self.folder)
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let entries = try #require(report?["entries"] as? [[String: Any]])
        func entry(_ kind: String, _ name: String) -> [String: Any]? {
            entries.first { $0["kind"] as? String == kind && $0["name"] as? String == name }
        }
        func count(_ kind: String, _ name: String, _ key: String) -> Int { (entry(kind, name)?[key] as? [Any])?.count ?? -1 }
        // The event and the screen named `cart` are told apart by `screen(…)`.
        #expect(count("screen", "cart", "appUses") == 1)
        #expect(count("event", "cart", "appUses") == 0)
        // `AnalyticsEvent.itemOpened(…)` written out counts; a task reports it too.
        #expect(count("event", "itemOpened", "appUses") == 1)
        #expect((entry("event", "itemOpened")?["tasks"] as? [String]) == ["list/cell/did-select"])
        // `other.neverSent` is a property of another value, not the factory.
        #expect(count("event", "neverSent", "appUses") == 0)
        let exported = try #require(entry("event", "exported")?["testUses"] as? [[String: Any]])
        #expect(exported.map { $0["asserted"] as? Bool } == [false, true])
    }

    @Test func failUnusedExitsOneForEventsNeverReported() throws {
        let result = try AnnaTool.run(["coverage", "--package", "SamplePackage", "--fail-unused"], in: Self.folder)
        #expect(result.status == 1)
        // Deprecated and unused is expected, not a failure reason of its own.
        #expect(result.stdout.contains("Sources/App/app.anna.yml:11:3: note: event 'oldPromo' is deprecated and no longer reported by app code"))
        // Located as compilers locate, so CI annotations and Xcode place each on its spec line.
        #expect(result.stdout.contains("\nSources/App/app.anna.yml:10:3: warning: event 'neverSent' is declared but never reported;"))
    }

    @Test func theExample() throws {
        let result = try AnnaTool.run(["coverage", "--package", AnnaTool.packageRoot.appending(path: "Examples/Shop").path, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let entries = try #require(report?["entries"] as? [[String: Any]])
        #expect(entries.count == 18)
        let unused = entries.filter { ($0["appUses"] as? [Any])?.isEmpty == true && ($0["tasks"] as? [Any])?.isEmpty == true }
        #expect(unused.compactMap { $0["name"] as? String } == ["purchaseRefunded", "legacyCheckout"])
        let cartViewed = entries.first { $0["name"] as? String == "cartViewed" }
        #expect((cartViewed?["tasks"] as? [String]) == ["/cart/appeared"])
    }

    @Test func badInput() throws {
        let root = try AnnaTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let noPackage = try AnnaTool.run(["coverage", "--package", root.path])
        #expect(noPackage.status == 2)
        #expect(noPackage.stderr == "anna coverage: error: \(root.path) has no Package.swift; give the package's folder with --package\n")

        try "// swift-tools-version: 6.1\n".write(to: root.appending(path: "Package.swift"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: root.appending(path: "Sources/App"), withIntermediateDirectories: true)
        try "anna: 1\nevents:\n  opened:\n    parameters:\n      title: strng\n"
            .write(to: root.appending(path: "Sources/App/bad.anna.yml"), atomically: true, encoding: .utf8)
        let invalid = try AnnaTool.run(["coverage", "--package", root.path])
        #expect(invalid.status == 2)
        #expect(invalid.stderr.hasPrefix("Sources/App/bad.anna.yml:5:14: error: unknown type 'strng'"))

        // `anna` alone, without anna-coverage beside it, says how to build it.
        let lone = root.appending(path: "bin")
        try FileManager.default.createDirectory(at: lone, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: AnnaTool.executable, to: lone.appending(path: "anna"))
        let missing = try AnnaTool.run(["coverage", "--package", root.path], executable: lone.appending(path: "anna"))
        #expect(missing.status == 2)
        #expect(missing.stderr.hasPrefix("anna coverage: error: anna-coverage is not built beside this tool; run `swift build --product anna-coverage`"))
    }
}
#endif
