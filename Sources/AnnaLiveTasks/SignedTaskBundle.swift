// Needs swift-crypto: compiled with Anna's `LiveTasks` trait (see TaskBundleVerifier+WithoutTrait.swift).
#if LiveTasks
import Crypto
import Foundation

/// A task bundle as it travels: the payload's bytes and an Ed25519 signature over
/// exactly those bytes, in a small JSON envelope.
///
/// ```json
/// {"annaTaskBundle": 1, "payload": "<base64>", "signature": "<base64>"}
/// ```
/// The payload is verified byte for byte before anything reads it: no field of a
/// bundle is trusted until its signature checks against a public key the app ships.
public struct SignedTaskBundle: Sendable, Hashable {
    /// The envelope format this version writes and reads.
    public static let format = 1

    /// The signed bytes.
    public var payload: Data
    /// The Ed25519 signature of ``payload``, 64 bytes.
    public var signature: Data

    /// Wraps signed bytes.
    public init(payload: Data, signature: Data) {
        self.payload = payload
        self.signature = signature
    }

    /// Signs a payload.
    /// - Parameters:
    ///   - payload: The bytes to sign, usually what `anna bundle` wrote.
    ///   - key: The private key, which stays with whoever publishes tasks.
    public init(signing payload: Data, with key: Curve25519.Signing.PrivateKey) throws {
        self.payload = payload
        self.signature = try key.signature(for: payload)
    }

    /// The envelope's JSON bytes.
    public func encoded() -> Data {
        let text = """
            {"annaTaskBundle": \(Self.format), "payload": "\(payload.base64EncodedString())", \
            "signature": "\(signature.base64EncodedString())"}

            """
        return Data(text.utf8)
    }

    /// Reads an envelope, without verifying it.
    /// - Parameters:
    ///   - data: The envelope's bytes.
    ///   - maxBytes: The most bytes accepted; larger input is refused before it is parsed.
    /// - Throws: ``TaskBundleError`` naming what is wrong.
    public init(decoding data: Data, maxBytes: Int = TaskBundleVerifier.defaultMaxBytes) throws(TaskBundleError) {
        guard data.count <= maxBytes else {
            throw TaskBundleError(.tooLarge, "the bundle is \(data.count) bytes; at most \(maxBytes) are accepted")
        }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw TaskBundleError(.malformed, "the bundle is not JSON (truncated or not a task bundle)")
        }
        guard let fields = object as? [String: Any] else {
            throw TaskBundleError(.malformed, "the bundle is not a JSON object")
        }
        guard let format = fields["annaTaskBundle"] as? Int else {
            throw TaskBundleError(.malformed, "the bundle has no 'annaTaskBundle' format number; is it a signed task bundle?")
        }
        guard format == Self.format else {
            throw TaskBundleError(.unsupportedFormat, "the bundle has format \(format); this version of Anna reads format \(Self.format)")
        }
        func base64(_ key: String) throws(TaskBundleError) -> Data {
            guard let text = fields[key] as? String else {
                throw TaskBundleError(.malformed, "the bundle has no '\(key)' string")
            }
            guard let bytes = Data(base64Encoded: text) else {
                throw TaskBundleError(.malformed, "the bundle's '\(key)' is not base64")
            }
            return bytes
        }
        payload = try base64("payload")
        signature = try base64("signature")
    }
}

/// Checks signed task bundles against the public key an app ships.
///
/// ```swift
/// let verifier = try TaskBundleVerifier(publicKeyBase64: "MCowBQYDK2VwAyEA…")
/// let payload = try verifier.verifiedPayload(of: downloadedData)
/// ```
public struct TaskBundleVerifier: Sendable {
    /// The largest bundle accepted by default: 1 MiB, far above 1,000 tasks.
    public static let defaultMaxBytes = 1 << 20

    /// The key signatures must check against.
    public let publicKey: Curve25519.Signing.PublicKey
    /// The largest bundle accepted, in bytes.
    public var maxBytes: Int

    /// A verifier for a public key.
    public init(publicKey: Curve25519.Signing.PublicKey, maxBytes: Int = Self.defaultMaxBytes) {
        self.publicKey = publicKey
        self.maxBytes = maxBytes
    }

    /// A verifier for a public key given as the base64 of its 32 raw bytes, as
    /// `anna-sign keygen` prints it.
    /// - Throws: ``TaskBundleError`` with ``TaskBundleError/Code/badKey`` when the text
    ///   is not such a key.
    public init(publicKeyBase64 text: String, maxBytes: Int = Self.defaultMaxBytes) throws(TaskBundleError) {
        guard let bytes = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)),
            let key = try? Curve25519.Signing.PublicKey(rawRepresentation: bytes)
        else {
            throw TaskBundleError(.badKey, "the public key is not the base64 of 32 Ed25519 key bytes")
        }
        self.init(publicKey: key, maxBytes: maxBytes)
    }

    /// The payload of a signed bundle, once its signature checks.
    /// - Throws: ``TaskBundleError``: too large, malformed, another format, or a
    ///   signature that does not check (a changed byte, another key).
    public func verifiedPayload(of data: Data) throws(TaskBundleError) -> Data {
        let bundle = try SignedTaskBundle(decoding: data, maxBytes: maxBytes)
        guard publicKey.isValidSignature(bundle.signature, for: bundle.payload) else {
            throw TaskBundleError(
                .badSignature,
                "the bundle's signature does not check against the app's public key; it was changed or signed with another key")
        }
        return bundle.payload
    }
}
#endif
