import Foundation

/// Why a task bundle was refused. The tasks already running stay.
public struct TaskBundleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem.
    public enum Code: String, Sendable, Hashable {
        /// Over the size cap.
        case tooLarge
        /// Not JSON, truncated, or a field missing or of the wrong kind.
        case malformed
        /// A format number this version does not read.
        case unsupportedFormat
        /// The signature does not check against the public key.
        case badSignature
        /// The public key itself is not an Ed25519 key.
        case badKey
        /// A set names no catalog the app passed.
        case unknownTaskSet
        /// A set was checked against another catalog than the app's.
        case catalogMismatch
        /// A task reports an undeclared event, a value of another type, or is
        /// otherwise invalid (``AnnaFocusPaths/TaskError``).
        case invalidTasks
    }

    /// The kind of problem.
    public var code: Code
    /// What is wrong and what to do.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `task bundle: <message>`.
    public var description: String { "task bundle: \(message)" }
}
