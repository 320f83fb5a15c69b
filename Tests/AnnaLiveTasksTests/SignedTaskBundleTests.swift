// Signed bundles need swift-crypto: Anna's `LiveTasks` trait (`swift test --traits LiveTasks`; CI enables all traits).
#if LiveTasks
import AnnaLiveTasks
import Crypto
import Foundation
import Testing

/// Signed bundles: what verifies, and each way a bundle can be wrong.
@Suite struct SignedTaskBundleTests {
    let key = Curve25519.Signing.PrivateKey()
    let payload = Data(#"{"format":1,"set":"Shop","tasks":[]}"#.utf8)

    var verifier: TaskBundleVerifier { TaskBundleVerifier(publicKey: key.publicKey) }

    func signed() throws -> Data { try SignedTaskBundle(signing: payload, with: key).encoded() }

    func refusal(_ data: Data, verifier: TaskBundleVerifier? = nil) -> TaskBundleError? {
        do {
            _ = try (verifier ?? self.verifier).verifiedPayload(of: data)
            return nil
        } catch {
            return error
        }
    }

    @Test func aSignedBundleGivesItsPayloadBack() throws {
        #expect(try verifier.verifiedPayload(of: try signed()) == payload)
        let base64Key = key.publicKey.rawRepresentation.base64EncodedString()
        #expect(try TaskBundleVerifier(publicKeyBase64: base64Key + "\n").verifiedPayload(of: try signed()) == payload)
    }

    @Test func anotherKeyIsRefused() throws {
        let other = TaskBundleVerifier(publicKey: Curve25519.Signing.PrivateKey().publicKey)
        #expect(refusal(try signed(), verifier: other)?.code == .badSignature)
    }

    @Test func aChangedPayloadByteIsRefused() throws {
        var bundle = try SignedTaskBundle(signing: payload, with: key)
        bundle.payload[bundle.payload.startIndex + 3] ^= 1
        #expect(refusal(bundle.encoded())?.code == .badSignature)
        var signature = try SignedTaskBundle(signing: payload, with: key)
        signature.signature[signature.signature.startIndex] ^= 0x80
        #expect(refusal(signature.encoded())?.code == .badSignature)
    }

    @Test func truncatedOrOtherJSONIsMalformed() throws {
        let data = try signed()
        #expect(refusal(data.prefix(data.count / 2))?.code == .malformed)
        #expect(refusal(Data("[1, 2]".utf8))?.code == .malformed)
        #expect(refusal(Data(#"{"payload": "AA==", "signature": "AA=="}"#.utf8))?.code == .malformed)
        #expect(refusal(Data(#"{"annaTaskBundle": 1, "payload": "not base64!", "signature": "AA=="}"#.utf8))?.code == .malformed)
        #expect(refusal(Data(#"{"annaTaskBundle": 1, "payload": "AA=="}"#.utf8))?.message == "the bundle has no 'signature' string")
    }

    @Test func anotherFormatIsNamed() {
        let error = refusal(Data(#"{"annaTaskBundle": 2, "payload": "AA==", "signature": "AA=="}"#.utf8))
        #expect(error?.code == .unsupportedFormat)
        #expect(error?.message == "the bundle has format 2; this version of Anna reads format 1")
    }

    @Test func anOversizeBundleIsRefusedBeforeParsing() throws {
        var small = verifier
        small.maxBytes = 64
        let error = refusal(try signed(), verifier: small)
        #expect(error?.code == .tooLarge)
        #expect(error?.message.hasSuffix("at most 64 are accepted") == true)
    }

    @Test func aKeyThatIsNotOneIsRefused() {
        #expect(throws: TaskBundleError(.badKey, "the public key is not the base64 of 32 Ed25519 key bytes")) {
            try TaskBundleVerifier(publicKeyBase64: "AAAA")
        }
    }
}
#endif
