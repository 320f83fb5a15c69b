@_spi(DurableQueue)
extension DurableQueue {
    /// Why a ``DurableQueue`` deleted or refused records: one of the delivery cases of
    /// Anna's one ``Anna/DropReason`` (capacity, age, writeFailed, tooLarge, purged,
    /// bufferFull, storageUnavailable).
    public typealias DropReason = Anna.DropReason

    /// What a ``DurableQueue`` counted since it was opened.
    public struct Metrics: Sendable, Hashable {
        /// Records passed to ``DurableQueue/append(_:)`` and taken.
        public var appended = 0
        /// Records written and synced (accepted; they survive a crash) and not deleted
        /// since by a cap or a purge: what was deleted is no longer persisted.
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
        /// `fsync`s made (attempted) since the queue opened: of segments, of the
        /// cursor and age-stamp files, and of the directory. What a trickle of events
        /// costs the disk.
        public var syncs = 0

        /// Creates empty counts.
        public init() {}
    }
}
