import Foundation
import Testing

/// Built without Anna's traits, `anna-sign` and `anna-coverage` have nothing to sign
/// or read Swift with, and say how to enable the trait (`swift test` without
/// `--traits`; CI enables all traits, and ConsumerPackageTests run them in an app).
@Suite struct TraitAdviceTests {
    static let folder = AnnaTool.executable.deletingLastPathComponent()

    #if !LiveTasks
    @Test func annaSignSaysHowToEnableLiveTasks() throws {
        let result = try AnnaTool.run(["keygen", "--private-key", "/nonexistent/k"], executable: Self.folder.appending(path: "anna-sign"))
        #expect(result.status == 2)
        #expect(result.stderr.contains("built without Anna's LiveTasks trait"))
        #expect(result.stderr.contains("traits: [\"LiveTasks\"]"))
    }
    #endif

    #if !Coverage
    @Test func annaCoverageSaysHowToEnableCoverage() throws {
        let result = try AnnaTool.run(["--package", "."], executable: Self.folder.appending(path: "anna-coverage"))
        #expect(result.status == 2)
        #expect(result.stderr.contains("built without Anna's Coverage trait"))
        #expect(result.stderr.contains("traits: [\"Coverage\"]"))
    }
    #endif

    /// `anna bundle --sign` without anna-sign beside it says how to get it.
    @Test func bundleSigningWithoutAnnaSignSaysHowToBuildIt() throws {
        let root = try AnnaTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let lone = root.appending(path: "bin")
        try FileManager.default.createDirectory(at: lone, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: AnnaTool.executable, to: lone.appending(path: "anna"))
        let spec = AnnaTool.packageRoot.appending(path: "Tests/AnnaLiveTasksTests/store.anna.yml").path
        let result = try AnnaTool.run(
            ["bundle", spec, "--output", root.appending(path: "tasks.json").path, "--sign", root.appending(path: "k").path],
            executable: lone.appending(path: "anna"))
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("anna bundle: error: anna-sign is not built beside this tool; run `swift build --product anna-sign`"))
        #expect(result.stderr.contains("traits: [\"LiveTasks\"]"))
    }
}
