import Foundation

extension DurableProvider {
    /// When and how a ``DurableProvider`` uploads.
    public struct Configuration: Sendable {
        /// Upload when this many persisted events wait. 20 by default: a burst goes
        /// out in requests of 20 or more.
        public var flushAt: Int
        /// Upload what waits at least this often: the longest an event waits for its
        /// request while the app runs. 30 seconds by default, Segment's: a trickle
        /// of one event every 2 s makes one request per 15 events (67 per 1,000
        /// events) instead of one per 5 with 10 s, so the radio wakes a third as often.
        public var flushInterval: Duration
        /// The most events in one request. 500 by default.
        public var maxBatchCount: Int
        /// The largest event, encoded; larger ones are dropped and counted
        /// (``DropReason/tooLarge``). 32,000 bytes, Segment's 32 KB limit, by default.
        public var maxEventSize: Int
        /// The largest request body before compression. 500,000 bytes, Segment's 500 KB
        /// limit, by default: Segment and compatible collectors apply it to the JSON
        /// itself, so batches are cut by it and a 413 splits them whether or not the
        /// body travels compressed.
        public var maxBatchSize: Int
        /// Whether request bodies are sent gzip-compressed (`Content-Encoding: gzip`),
        /// which Segment and compatible collectors accept. A batch of typical events
        /// shrinks about sixfold. `true` by default; turn it off for a collector
        /// that does not take compressed bodies.
        public var compressesRequests: Bool
        /// The first retry waits up to this long (full jitter). 0.5 s by default.
        public var initialRetryDelay: Duration
        /// Retries wait at most this long, doubling up to it. 60 s by default.
        public var maxRetryDelay: Duration
        /// A server's `Retry-After` is honoured up to this long. One hour by default.
        /// A shorter one than the current backoff ceiling (``initialRetryDelay``
        /// doubled per consecutive failure, up to ``maxRetryDelay``) is raised to it:
        /// `0`, negative values and past dates never mean an immediate retry.
        public var maxRetryAfter: Duration
        /// The longest a request may take in all, from sending to the last byte of the
        /// answer; then it is cancelled and retried. 15 s by default.
        public var requestTimeout: Duration
        /// Single events answered 400 in a row after which the collector is taken as
        /// failing (a proxy or collector refusing everything): they are kept, not
        /// dropped, and the uploader backs off until a 2xx. 50 by default.
        public var maxRejectedInARow: Int
        /// On an expensive (cellular, a personal hotspot) or constrained (Low Data
        /// Mode) ``NetworkPath``, uploads wait for another path while more than this
        /// many events wait: a backlog that built up offline goes out on Wi-Fi, a
        /// trickle still goes out on cellular. `nil` by default: every path uploads.
        public var maxBacklogOnExpensivePath: Int?
        /// How the provider's queue writes and caps its storage.
        public var queue: DeliveryStorage.Configuration
        /// Receives rejected batches, dropped events, failed attempts and storage
        /// failures, on the provider's threads. Keep it short.
        public var errorHandler: (@Sendable (DeliveryError) -> Void)?

        /// Creates a configuration.
        /// - Parameters:
        ///   - flushAt: Events that start an upload.
        ///   - flushInterval: The longest events wait for an upload.
        ///   - maxBatchCount: The most events per request.
        ///   - maxEventSize: The largest event in bytes.
        ///   - maxBatchSize: The largest request body in bytes, before compression.
        ///   - compressesRequests: Whether bodies are sent gzip-compressed.
        ///   - initialRetryDelay: The first retry's jitter range.
        ///   - maxRetryDelay: The cap of the backoff.
        ///   - maxRetryAfter: The longest `Retry-After` honoured.
        ///   - requestTimeout: The longest a request may take in all.
        ///   - maxRejectedInARow: Single events answered 400 in a row that mean the
        ///     collector is failing.
        ///   - maxBacklogOnExpensivePath: The largest backlog uploaded on an expensive or
        ///     constrained path; `nil` for no limit.
        ///   - queue: The durable queue's configuration.
        ///   - errorHandler: Receives delivery problems.
        public init(
            flushAt: Int = 20,
            flushInterval: Duration = .seconds(30),
            maxBatchCount: Int = 500,
            maxEventSize: Int = 32_000,
            maxBatchSize: Int = 500_000,
            compressesRequests: Bool = true,
            initialRetryDelay: Duration = .milliseconds(500),
            maxRetryDelay: Duration = .seconds(60),
            maxRetryAfter: Duration = .seconds(3600),
            requestTimeout: Duration = .seconds(15),
            maxRejectedInARow: Int = 50,
            maxBacklogOnExpensivePath: Int? = nil,
            queue: DeliveryStorage.Configuration = DeliveryStorage.Configuration(),
            errorHandler: (@Sendable (DeliveryError) -> Void)? = nil
        ) {
            self.flushAt = flushAt
            self.flushInterval = flushInterval
            self.maxBatchCount = maxBatchCount
            self.maxEventSize = maxEventSize
            self.maxBatchSize = maxBatchSize
            self.compressesRequests = compressesRequests
            self.initialRetryDelay = initialRetryDelay
            self.maxRetryDelay = maxRetryDelay
            self.maxRetryAfter = maxRetryAfter
            self.requestTimeout = requestTimeout
            self.maxRejectedInARow = maxRejectedInARow
            self.maxBacklogOnExpensivePath = maxBacklogOnExpensivePath
            self.queue = queue
            self.errorHandler = errorHandler
        }
    }

    /// What a ``DurableProvider`` counted since it started.
    public struct Metrics: Sendable, Hashable {
        /// Events the provider received and queued for writing.
        public var queued = 0
        /// Events written and synced: accepted. A crash from now on loses none of them.
        /// An event a cap (``DropReason/capacity``, ``DropReason/age``) or a purge
        /// deletes afterwards is no longer counted: what was deleted is no longer persisted.
        public var persisted = 0
        /// Events a collector accepted (2xx).
        public var delivered = 0
        /// Failed upload attempts that will be retried: 5xx, 429, timeouts, refused
        /// or dropped connections.
        public var retried = 0
        /// Events not delivered, by reason; every drop is counted.
        public var dropped: [DropReason: Int] = [:]
        /// Persisted events not yet delivered.
        public var backlog = 0
        /// Events found on disk at start, from earlier runs.
        public var recovered = 0
        /// Events moved into this provider's queue from the queues of processes that
        /// ended, on a shared folder (``DeliveryStorage/shared(_:)``).
        public var adopted = 0
        /// Bytes of storage at start that held no intact event (torn writes, damage).
        public var skippedBytes = 0

        /// Creates empty counts.
        package init() {}

        /// Removed: a second spelling of `dropped[reason, default: 0]`.
        @available(*, unavailable, message: "read dropped[reason, default: 0]")
        public func dropped(_ reason: DropReason) -> Int { dropped[reason, default: 0] }
    }
}
