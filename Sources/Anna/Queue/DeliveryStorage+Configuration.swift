import Foundation

extension DeliveryStorage {
    /// How a ``DurableProvider``'s queue writes, caps and reads its segments.
    public struct Configuration: Sendable {
        /// The longest an appended record waits in memory before the writer appends
        /// it, with everything else waiting, and calls `fsync`. 50 ms by default. The
        /// writer writes at most once per interval: a record appended when the last
        /// write is older than this is written at once (a trickle's events, with no
        /// timer to wake a thread for them); later ones wait for the interval's end.
        public var syncInterval: Duration
        /// The most bytes the segments may take; beyond it the oldest segment is
        /// deleted and its unacknowledged records counted (``DropReason/capacity``).
        /// 64 MiB by default; `.memory(limit:)` sets it to its limit.
        public var maxBytes: Int
        /// Records older than this are deleted, a segment at a time, oldest first,
        /// and counted (``DropReason/age``). 7 days by default.
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
        /// Longer records are refused and counted (``DropReason/tooLarge``). 1 MiB by default.
        public var maxRecordSize: Int
        /// When this many bytes wait for the writer, it starts at once instead of at
        /// the end of ``syncInterval``. 1 MiB by default.
        public var writeThreshold: Int
        /// The most bytes (framed records) that may wait in memory for the writer.
        /// Beyond it `append` refuses records and counts them
        /// (``DropReason/bufferFull``); the queue's `waitForRoom()`
        /// waits instead. A batch appended while the buffer is under the bound is
        /// taken whole. 4 MiB by default, at least one record of ``maxRecordSize``.
        public var maxBufferedBytes: Int
        /// When the queue holds its storage's file locks: ``DeliveryStorage/LockPolicy/whileRunning``
        /// (an app) by default, ``DeliveryStorage/LockPolicy/aroundIO`` in an app extension.
        public var lockPolicy: LockPolicy
        /// How writes are made durable on Apple platforms: ``DeliveryStorage/SyncMode/barrier``
        /// by default; ``DeliveryStorage/SyncMode/full`` to survive a sudden power loss
        /// at the cost of a drive-cache flush per write.
        public var syncMode: SyncMode

        /// Creates a configuration.
        /// - Parameters:
        ///   - syncInterval: The longest a record waits before it is written and synced.
        ///   - maxBytes: The disk (or memory) cap.
        ///   - maxAge: The age cap.
        ///   - segmentSize: The size at which a new segment starts.
        ///   - maxRecordSize: The largest record taken.
        ///   - writeThreshold: Buffered bytes that start the writer early.
        ///   - maxBufferedBytes: The most bytes waiting in memory for the writer.
        ///   - lockPolicy: When the queue holds its file locks; `.aroundIO` in an app extension.
        ///   - syncMode: How writes are made durable on Apple platforms.
        public init(
            syncInterval: Duration = .milliseconds(50),
            maxBytes: Int = 64 << 20,
            maxAge: Duration = .seconds(7 * 24 * 3600),
            segmentSize: Int = 4 << 20,
            maxRecordSize: Int = 1 << 20,
            writeThreshold: Int = 1 << 20,
            maxBufferedBytes: Int = 4 << 20,
            lockPolicy: LockPolicy = .whileRunning,
            syncMode: SyncMode = .barrier
        ) {
            self.lockPolicy = lockPolicy
            self.syncMode = syncMode
            self.maxBufferedBytes = maxBufferedBytes
            self.syncInterval = syncInterval
            self.maxBytes = maxBytes
            self.maxAge = maxAge
            self.segmentSize = segmentSize
            self.maxRecordSize = maxRecordSize
            self.writeThreshold = writeThreshold
        }
    }
}
