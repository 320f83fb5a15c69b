// Needs swift-crypto: compiled with Anna's `LiveTasks` trait (see AnnaSign+WithoutTrait.swift).
#if LiveTasks
import AnnaLiveTasks
import ArgumentParser
import Crypto
import Foundation

/// Makes Ed25519 keys and signs task bundles. Exit codes: 0 done, 2 bad input.
@main
struct AnnaSign: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "anna-sign",
        abstract: "Makes Ed25519 signing keys and signs Anna task bundles.",
        subcommands: [KeyGen.self, Sign.self, Verify.self]
    )
}

/// Prints `message` to standard error and exits with 2.
func fail(_ message: String) -> ExitCode {
    FileHandle.standardError.write(Data("anna-sign: error: \(message)\n".utf8))
    return ExitCode(2)
}

func readFile(_ path: String, what: String) throws -> Data {
    guard let data = FileManager.default.contents(atPath: path) else {
        throw fail("cannot read the \(what) \(path)")
    }
    return data
}

struct KeyGen: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keygen",
        abstract: "Writes a new private key (base64, keep it secret) and prints its public key (base64, ship it in the app).")

    @Option(help: "Where to write the private key; the file is created readable by its owner only and never overwritten.")
    var privateKey: String

    func run() throws {
        guard !FileManager.default.fileExists(atPath: privateKey) else {
            throw fail("\(privateKey) exists; choose another path or remove it yourself")
        }
        let key = Curve25519.Signing.PrivateKey()
        let created = FileManager.default.createFile(
            atPath: privateKey, contents: Data((key.rawRepresentation.base64EncodedString() + "\n").utf8),
            attributes: [.posixPermissions: 0o600])
        guard created else { throw fail("cannot write \(privateKey)") }
        print(key.publicKey.rawRepresentation.base64EncodedString())
    }
}

struct Sign: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Signs a task bundle's payload (what `anna bundle` writes) into a signed bundle.")

    @Argument(help: "The payload file.")
    var payload: String

    @Option(help: "The private key file written by `anna-sign keygen`.")
    var key: String

    @Option(help: "Where to write the signed bundle.")
    var output: String

    func run() throws {
        let keyText = String(decoding: try readFile(key, what: "private key"), as: UTF8.self)
        guard let raw = Data(base64Encoded: keyText.trimmingCharacters(in: .whitespacesAndNewlines)),
            let privateKey = try? Curve25519.Signing.PrivateKey(rawRepresentation: raw)
        else { throw fail("\(key) is not a private key written by `anna-sign keygen`") }
        let bundle = try SignedTaskBundle(signing: try readFile(payload, what: "payload"), with: privateKey)
        guard FileManager.default.createFile(atPath: output, contents: bundle.encoded()) else {
            throw fail("cannot write \(output)")
        }
    }
}

struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Checks a signed bundle against a public key and prints its payload; exit 1 when it does not check.")

    @Argument(help: "The signed bundle.")
    var bundle: String

    @Option(help: "The public key, base64, as `keygen` printed it.")
    var publicKey: String

    func run() throws {
        let verifier: TaskBundleVerifier
        do {
            verifier = try TaskBundleVerifier(publicKeyBase64: publicKey)
        } catch {
            throw fail(error.message)
        }
        let data = try readFile(bundle, what: "bundle")
        do {
            FileHandle.standardOutput.write(try verifier.verifiedPayload(of: data))
        } catch {
            FileHandle.standardError.write(Data("anna-sign: \(bundle): \(error.message)\n".utf8))
            throw ExitCode.failure
        }
    }
}
#endif
