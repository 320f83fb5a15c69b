import Foundation

/// Where a ``DurableQueue`` keeps its segments and its small state files (the
/// acknowledgement cursor, the age stamps): files in a directory, or memory.
///
/// Used on the queue's writer queue only, except ``acquireLock()``, which the
/// queue's initializer calls on the caller's thread before the writer exists.
/// Durability is the caller's to order: `sync(_:)` makes a segment's bytes
/// durable, ``syncDirectory()`` makes names (creations, deletions, renames) durable.
protocol SegmentStore: AnyObject {
    /// Creates the directory if needed and takes the exclusive lock on it.
    /// - Throws: ``DurableStorageError`` with ``DurableStorageError/isLockConflict``
    ///   when another queue holds it.
    func acquireLock() throws
    /// Closes every descriptor and gives the lock up.
    func releaseLock()
    /// The segments present, in ascending order.
    /// - Throws: When the directory cannot be listed: the queue then must not guess.
    func segmentIDs() throws -> [UInt64]
    /// A segment's whole contents, for recovery.
    func contents(of id: UInt64) throws -> [UInt8]
    /// A segment's size, if it can be found without reading it (for the caps).
    func size(of id: UInt64) -> Int?
    /// Creates an empty segment; throws `EEXIST` when it exists (never truncates one).
    func create(_ id: UInt64) throws
    /// Writes `bytes` at `offset` of a segment.
    func write(_ bytes: UnsafeRawBufferPointer, to id: UInt64, at offset: Int) throws
    /// Makes everything written to a segment durable (not its name: ``syncDirectory()``).
    func sync(_ id: UInt64) throws
    /// Makes the directory's names durable: creations, deletions, renames.
    func syncDirectory() throws
    /// Cuts a segment back to `size` bytes after a failed write.
    func truncate(_ id: UInt64, to size: Int) throws
    /// Reads up to `count` bytes at `offset`; fewer at the end of the file.
    func read(_ id: UInt64, at offset: Int, count: Int) throws -> [UInt8]
    /// Deletes a segment.
    func remove(_ id: UInt64) throws
    /// A small state file's contents, if it exists and can be read.
    func loadState(_ file: StateFile) -> [UInt8]?
    /// Replaces a small state file atomically (a temporary file renamed over it),
    /// its contents synced first when the file ``StateFile/isDurable``; the rename is
    /// durable after the next ``syncDirectory()``.
    func storeState(_ bytes: [UInt8], as file: StateFile) throws
    /// Makes everything synced so far survive a power loss, where syncs only order
    /// writes (``DeliveryStorage/SyncMode/barrier`` on Apple platforms): for a purge.
    func flushDrive() throws
    /// Moves the segments and state files to the subfolder of format `version`
    /// (``QueueFormat``), keeping the lock, because the folder belongs to a later format.
    /// - Returns: The subfolder's path; `nil` when the store is there already or has
    ///   no folders (memory).
    func useFormatFolder(_ version: UInt32) throws -> String?
    /// Deletes the temporary files of ``storeState(_:as:)`` that a crash left.
    func removeTemporaryFiles()
}

extension SegmentStore {
    /// Syncs are durable already.
    func flushDrive() throws {}
    /// No folders.
    func useFormatFolder(_ version: UInt32) throws -> String? { nil }
    /// No temporary files.
    func removeTemporaryFiles() {}
}

/// The queue's small files beside the segments.
enum StateFile: String, CaseIterable {
    /// The acknowledgement cursor.
    case cursor
    /// The newest record's age stamp per segment, in queue-clock time.
    case stamps

    /// Whether its contents are synced before the rename. The cursor's are: a lost
    /// cursor sends acknowledged events again. The stamps' are not: a lost or empty
    /// file only makes segments younger at the next open, and saving them every few
    /// seconds while events trickle in would cost an `fsync` each time.
    var isDurable: Bool { self == .cursor }
}
