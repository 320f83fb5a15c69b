import Foundation

/// Something a ``DurableProvider`` could not do, reported to
/// ``DurableProvider/Configuration/errorHandler`` or thrown by its initializer.
///
/// A struct over a private code, so that later versions can add kinds of error
/// without breaking a `switch` in app code: switch over ``code`` with a `default`,
/// or compare it (`error.code == .storageLocked`), and read the details the kind
/// carries from the optional properties.
public struct DeliveryError: Error, Sendable, CustomStringConvertible {
    /// The kind of a ``DeliveryError``.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case insecureEndpoint, rejected, dropped, retrying, collectorRejectsEverything, storage, storageLocked
        }

        private let base: Base

        /// The endpoint is not `https`, and not `http` on a loopback address: ``endpoint``.
        public static let insecureEndpoint = Code(base: .insecureEndpoint)
        /// The server answered 400 to these events alone: they were dropped. ``status``,
        /// ``events``, and ``response``, an excerpt of the server's body (at most 200 characters).
        public static let rejected = Code(base: .rejected)
        /// Events dropped for a reason other than a 400: ``events``, ``dropReason``.
        public static let dropped = Code(base: .dropped)
        /// An attempt failed and will be retried after ``delay`` seconds: 5xx, 429, 401,
        /// a redirect (3xx, never followed), a timeout, no connection. ``status`` (when
        /// the server answered), ``message``.
        public static let retrying = Code(base: .retrying)
        /// The server answered ``status`` (400) to ``inARow`` single events in a row: it is
        /// taken as failing, those events are kept, and the upload is retried after ``delay`` seconds.
        public static let collectorRejectsEverything = Code(base: .collectorRejectsEverything)
        /// Storage failed: a full disk, an I/O error. ``storageError``.
        public static let storage = Code(base: .storage)
        /// Another provider or `DurableQueue`, in this process or another, holds the
        /// storage directory's lock: give each provider and process its own directory.
        /// Thrown by ``DurableProvider/init(endpoint:writeKey:storage:options:configuration:)``
        /// and reported by ``DurableProvider/resume()``. ``storageError``.
        public static let storageLocked = Code(base: .storageLocked)

        /// The kind's name, e.g. `retrying`.
        public var description: String { base.rawValue }
    }

    /// The kind of error.
    public let code: Code
    /// The refused endpoint, for ``Code/insecureEndpoint``.
    public private(set) var endpoint: URL?
    /// The HTTP status, for ``Code/rejected``, ``Code/collectorRejectsEverything``, and
    /// ``Code/retrying`` when the server answered.
    public private(set) var status: Int?
    /// How many events, for ``Code/rejected`` and ``Code/dropped``.
    public private(set) var events: Int?
    /// An excerpt of the server's answer, for ``Code/rejected``.
    public private(set) var response: String?
    /// Why events were dropped, for ``Code/dropped``.
    public private(set) var dropReason: DropReason?
    /// What failed, for ``Code/retrying``.
    public private(set) var message: String?
    /// Seconds until the next attempt, for ``Code/retrying`` and ``Code/collectorRejectsEverything``.
    public private(set) var delay: TimeInterval?
    /// How many single events in a row were answered 400, for ``Code/collectorRejectsEverything``.
    public private(set) var inARow: Int?
    /// The storage's error, for ``Code/storage`` and ``Code/storageLocked``.
    public private(set) var storageError: DurableStorageError?

    private init(code: Code) {
        self.code = code
    }

    /// The endpoint is not `https`, and not `http` on a loopback address.
    package static func insecureEndpoint(_ endpoint: URL) -> DeliveryError {
        var result = DeliveryError(code: .insecureEndpoint)
        result.endpoint = endpoint
        return result
    }

    /// The server answered 400 to these events alone, which were dropped.
    package static func rejected(status: Int, events: Int, response: String) -> DeliveryError {
        var result = DeliveryError(code: .rejected)
        result.status = status
        result.events = events
        result.response = response
        return result
    }

    /// Events dropped for a reason other than a 400.
    package static func dropped(events: Int, reason: DropReason) -> DeliveryError {
        var result = DeliveryError(code: .dropped)
        result.events = events
        result.dropReason = reason
        return result
    }

    /// An attempt failed and will be retried after `delay` seconds.
    package static func retrying(status: Int?, message: String, delay: TimeInterval) -> DeliveryError {
        var result = DeliveryError(code: .retrying)
        result.status = status
        result.message = message
        result.delay = delay
        return result
    }

    /// The server answered 400 to `inARow` single events in a row and is taken as failing.
    package static func collectorRejectsEverything(status: Int, inARow: Int, delay: TimeInterval) -> DeliveryError {
        var result = DeliveryError(code: .collectorRejectsEverything)
        result.status = status
        result.inARow = inARow
        result.delay = delay
        return result
    }

    /// Storage failed.
    package static func storage(_ error: DurableStorageError) -> DeliveryError {
        var result = DeliveryError(code: .storage)
        result.storageError = error
        return result
    }

    /// Another provider or queue holds the storage directory's lock.
    package static func storageLocked(_ error: DurableStorageError) -> DeliveryError {
        var result = DeliveryError(code: .storageLocked)
        result.storageError = error
        return result
    }

    /// One line.
    public var description: String {
        let delay = String(format: "%.2f", self.delay ?? 0)
        let status = self.status.map(String.init) ?? "?"
        let events = self.events ?? 0
        switch code {
        case .insecureEndpoint:
            return "DurableProvider needs an https endpoint; http is accepted only for loopback hosts "
                + "(127.0.0.0/8, ::1, localhost), not '\(endpoint?.absoluteString ?? "")'"
        case .rejected:
            return "the collector answered \(status) to a batch of \(events) event(s), which were dropped: \(response ?? "")"
        case .dropped:
            return "\(events) event(s) dropped (\(dropReason?.rawValue ?? "?"))"
        case .retrying:
            return "upload failed (\(self.status.map { "HTTP \($0)" } ?? message ?? "?")); retrying in \(delay) s"
        case .collectorRejectsEverything:
            return "the collector answered \(status) to \(inARow ?? 0) single events in a row; keeping them and "
                + "retrying in \(delay) s"
        case .storage:
            return "storage failed: \(storageError.map(\.description) ?? "?")"
        default:
            return storageError.map(\.description) ?? "the storage directory is locked"
        }
    }
}
