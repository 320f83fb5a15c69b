// anna-sign signs only with Anna's `LiveTasks` trait (TraitAdviceTests cover it without).
#if LiveTasks
import Foundation
import Testing

/// `anna-sign` as a publisher runs it: a key pair, a signed bundle, a check.
@Suite struct SignToolTests {
    static let tool = AnnaTool.executable.deletingLastPathComponent().appendingPathComponent("anna-sign")

    @Test func keygenSignAndVerifyRoundTrip() throws {
        let folder = try AnnaTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = folder.appendingPathComponent("tasks.key").path
        let keygen = try AnnaTool.run(["keygen", "--private-key", key], executable: Self.tool)
        #expect(keygen.status == 0, "\(keygen.stderr)")
        let publicKey = keygen.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(Data(base64Encoded: publicKey)?.count == 32)
        let attributes = try FileManager.default.attributesOfItem(atPath: key)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

        let again = try AnnaTool.run(["keygen", "--private-key", key], executable: Self.tool)
        #expect(again.status == 2)
        #expect(again.stderr == "anna-sign: error: \(key) exists; choose another path or remove it yourself\n")

        let payload = folder.appendingPathComponent("tasks.json")
        try Data(#"{"format":1,"tasks":[]}"#.utf8).write(to: payload)
        let signed = folder.appendingPathComponent("tasks.signed.json").path
        let sign = try AnnaTool.run(["sign", payload.path, "--key", key, "--output", signed], executable: Self.tool)
        #expect(sign.status == 0, "\(sign.stderr)")

        let verify = try AnnaTool.run(["verify", signed, "--public-key", publicKey], executable: Self.tool)
        #expect(verify.status == 0, "\(verify.stderr)")
        #expect(verify.stdout == #"{"format":1,"tasks":[]}"#)

        // Another key's public half does not check it.
        let otherKey = folder.appendingPathComponent("other.key").path
        let other = try AnnaTool.run(["keygen", "--private-key", otherKey], executable: Self.tool)
        let refused = try AnnaTool.run(
            ["verify", signed, "--public-key", other.stdout.trimmingCharacters(in: .whitespacesAndNewlines)], executable: Self.tool)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("does not check against the app's public key"))
    }

    @Test func aMissingKeyFileIsAnInputError() throws {
        let result = try AnnaTool.run(["sign", "/nonexistent/p.json", "--key", "/nonexistent/k", "--output", "/tmp/x"], executable: Self.tool)
        #expect(result.status == 2)
        #expect(result.stderr == "anna-sign: error: cannot read the private key /nonexistent/k\n")
    }
}
#endif
