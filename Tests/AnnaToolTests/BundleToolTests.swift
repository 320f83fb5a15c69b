import Foundation
import Testing

/// `anna bundle`: the payload the runtime tests load, and signing through anna-sign.
@Suite struct BundleToolTests {
    static let spec = AnnaTool.packageRoot.appending(path: "Tests/AnnaLiveTasksTests/store.anna.yml")
    static let expected = AnnaTool.packageRoot.appending(path: "Tests/AnnaLiveTasksTests/Fixtures/store.tasks.json")

    @Test func theBundleIsTheOneTheRuntimeTestsLoad() throws {
        let folder = try AnnaTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appending(path: "tasks.json")
        let result = try AnnaTool.run(["bundle", Self.spec.path, "--output", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Data(contentsOf: output) == Data(contentsOf: Self.expected))
    }

    #if LiveTasks
    @Test func signedWithAKeyFromAnnaSign() throws {
        let folder = try AnnaTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = folder.appending(path: "tasks.key").path
        let keygen = try AnnaTool.run(["keygen", "--private-key", key], executable: SignToolTests.tool)
        let publicKey = keygen.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let output = folder.appending(path: "tasks.signed.json").path
        let result = try AnnaTool.run(["bundle", Self.spec.path, "--output", output, "--sign", key])
        #expect(result.status == 0, "\(result.stderr)")
        let verify = try AnnaTool.run(["verify", output, "--public-key", publicKey], executable: SignToolTests.tool)
        #expect(verify.status == 0)
        #expect(Data(verify.stdout.utf8) == (try Data(contentsOf: Self.expected)))
    }
    #endif

    @Test func specsWithoutTasksOrInvalidOnesExitTwo() throws {
        let folder = try AnnaTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try "anna: 1\nevents:\n  opened: {}\n".write(to: folder.appending(path: "plain.anna.yml"), atomically: true, encoding: .utf8)
        let none = try AnnaTool.run(["bundle", "plain.anna.yml", "--output", "x.json"], in: folder)
        #expect(none.status == 2)
        #expect(none.stderr == "anna bundle: error: the specs have no tasks; add a tasks: section\n")
        try "anna: 1\nevents:\n  opened: {}\ntasks:\n  - match: a/x\n    report: closed\n".write(to: folder.appending(path: "bad.anna.yml"), atomically: true, encoding: .utf8)
        let invalid = try AnnaTool.run(["bundle", "bad.anna.yml", "--output", "x.json"], in: folder)
        #expect(invalid.status == 2)
        #expect(invalid.stderr.hasPrefix("bad.anna.yml:6:13: error: the task reports 'closed', which 'events:' does not declare"))
        #expect(!FileManager.default.fileExists(atPath: folder.appending(path: "x.json").path))
    }
}
