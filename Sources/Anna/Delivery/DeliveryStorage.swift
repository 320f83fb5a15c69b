import Foundation

/// Where a ``DurableQueue`` (and so an ``HTTPBatchProvider``) keeps events until a
/// collector accepted them.
public enum DeliveryStorage: Sendable, Hashable {
    /// Segment files in a directory that the queue alone uses; created if missing.
    /// Events survive crashes and restarts. On Apple platforms, a folder in
    /// Application Support.
    ///
    /// The queue holds an exclusive `flock` on a `lock` file in it while it is open:
    /// a second queue on the same directory, in this process or another, fails to
    /// open (``DurableStorageError/isLockConflict``).
    case directory(URL)
    /// Memory, at most `limit` bytes of framed events; the oldest are dropped and
    /// counted beyond it. Nothing survives the process.
    case memory(limit: Int)
}

extension DurableQueue {
    /// How a ``DurableQueue`` writes, caps and reads its segments.
    public struct Configuration: Sendable {
        /// The longest an appended record waits in memory before the writer appends
        /// it, with everything else waiting, and calls `fsync`. 50 ms by default.
        public var syncInterval: Duration
        /// The most bytes the segments may take; beyond it the oldest segment is
        /// deleted and its unacknowledged records counted (``DurableQueue/DropReason/capacity``).
        /// 64 MiB by default; `.memory(limit:)` sets it to its limit.
        public var maxBytes: Int
        /// Records older than this are deleted, a segment at a time, oldest first,
        /// and counted (``DurableQueue/DropReason/age``). 7 days by default.
        ///
        /// Age is measured in queue time, which no wall-clock jump can fake: monotonic
        /// time while a queue is open, plus the wall-clock time between two runs
        /// counted as at least 0 and at most 24 hours. A clock set forward by years
        /// (or corrected from 1970 after a reset) drops nothing; a clock set back makes
        /// no age negative; a device switched off for a month ages records by a day.
        public var maxAge: Duration
        /// A segment takes new records until it holds this many bytes. 4 MiB by default,
        /// at most a quarter of ``maxBytes`` so that the cap drops a segment, not the queue.
        public var segmentSize: Int
        /// Longer records are refused and counted (``DurableQueue/DropReason/tooLarge``). 1 MiB by default.
        public var maxRecordSize: Int
        /// When this many bytes wait for the writer, it starts at once instead of at
        /// the end of ``syncInterval``. 1 MiB by default.
        public var writeThreshold: Int
        /// The most bytes (framed records) that may wait in memory for the writer.
        /// Beyond it `append` refuses records and counts them
        /// (``DurableQueue/DropReason/bufferFull``); ``DurableQueue/waitForRoom()``
        /// waits instead. A batch appended while the buffer is under the bound is
        /// taken whole. 4 MiB by default, at least one record of ``maxRecordSize``.
        public var maxBufferedBytes: Int

        /// Creates a configuration.
        /// - Parameters:
        ///   - syncInterval: The longest a record waits before it is written and synced.
        ///   - maxBytes: The disk (or memory) cap.
        ///   - maxAge: The age cap.
        ///   - segmentSize: The size at which a new segment starts.
        ///   - maxRecordSize: The largest record taken.
        ///   - writeThreshold: Buffered bytes that start the writer early.
        ///   - maxBufferedBytes: The most bytes waiting in memory for the writer.
        public init(
            syncInterval: Duration = .milliseconds(50),
            maxBytes: Int = 64 << 20,
            maxAge: Duration = .seconds(7 * 24 * 3600),
            segmentSize: Int = 4 << 20,
            maxRecordSize: Int = 1 << 20,
            writeThreshold: Int = 1 << 20,
            maxBufferedBytes: Int = 4 << 20
        ) {
            self.maxBufferedBytes = maxBufferedBytes
            self.syncInterval = syncInterval
            self.maxBytes = maxBytes
            self.maxAge = maxAge
            self.segmentSize = segmentSize
            self.maxRecordSize = maxRecordSize
            self.writeThreshold = writeThreshold
        }
    }

    /// Why a ``DurableQueue`` deleted or refused records.
    public enum DropReason: String, Sendable, Hashable, CaseIterable, Codable {
        /// The queue was over ``Configuration/maxBytes``; the oldest segment went.
        case capacity
        /// The records were older than ``Configuration/maxAge``.
        case age
        /// Writing or syncing failed (a full disk, an I/O error); the records were
        /// never accepted.
        case writeFailed
        /// The record was longer than ``Configuration/maxRecordSize``.
        case tooLarge
        /// ``DurableQueue/purge()`` deleted them (the user opted out).
        case purged
        /// More than ``Configuration/maxBufferedBytes`` waited for the writer: the
        /// record was refused by `append` (never accepted).
        case bufferFull
        /// The storage directory could not be listed, so the queue could not tell
        /// which segment numbers are taken: it refused to write rather than risk
        /// overwriting records (never accepted). It lists again at every write.
        case storageUnavailable
    }

    /// What a ``DurableQueue`` counted since it was opened.
    public struct Metrics: Sendable, Hashable {
        /// Records passed to ``DurableQueue/append(_:)-(UnsafeRawBufferPointer)`` and taken.
        public var appended = 0
        /// Records written and synced: accepted. They survive a crash.
        public var persisted = 0
        /// Records acknowledged (the server took them) and so removed from the backlog;
        /// a record a cap dropped before its acknowledgement is counted there only.
        public var acknowledged = 0
        /// Records deleted or refused, by reason.
        public var dropped: [DropReason: Int] = [:]
        /// Intact, unacknowledged records found on disk at open.
        public var recovered = 0
        /// Bytes at open that belonged to no intact record: torn writes, damage.
        public var skippedBytes = 0
        /// Runs of such bytes; each is a torn tail or at least one damaged record.
        public var skippedRegions = 0
        /// Persisted records not yet acknowledged: the backlog on disk.
        public var backlog = 0
        /// Bytes the segments take.
        public var storedBytes = 0
        /// Bytes appended and waiting in memory for the writer.
        public var bufferedBytes = 0
        /// Segments that could not be opened or read (an I/O error, too many open
        /// files, a file protected until the device is unlocked): kept, unread, and
        /// tried again at every read and at every open. Reading stops before the
        /// first of them, so nothing after it is acknowledged before it is read.
        public var unreadableSegments = 0
        /// Unreadable segments the byte or age cap deleted; their records, unknown,
        /// are not in ``dropped``.
        public var droppedUnreadableSegments = 0

        /// Creates empty counts.
        public init() {}

        /// The number of records dropped for one reason.
        public func dropped(_ reason: DropReason) -> Int { dropped[reason, default: 0] }
    }

    /// A record read from the queue, to be acknowledged once the server took it.
    public struct Record: Sendable, Hashable {
        /// The bytes that were appended.
        public let payload: [UInt8]
        let segment: UInt64
        let end: Int
    }
}
