import Foundation

/// Where a `DurableQueue` (and so a ``DurableProvider``) keeps events until a
/// collector accepted them.
public enum DeliveryStorage: Sendable, Hashable {
    /// Segment files in a directory that the queue alone uses; created if missing.
    /// Events survive crashes and restarts. On Apple platforms, a folder in
    /// Application Support.
    ///
    /// The queue holds an exclusive `flock` on a `lock` file in it while it is open:
    /// a second queue on the same directory, in this process or another, fails to
    /// open (``DeliveryError`` with code ``DeliveryError/Code/storageLocked``).
    case directory(URL)
    /// A folder that an app and its extensions share, such as a folder in an App
    /// Group container (`FileManager.containerURL(forSecurityApplicationGroupIdentifier:)`).
    /// Created if missing.
    ///
    /// Each process writes its own queue, `queues/<process name>.<n>` under the
    /// folder, claimed by an exclusive `flock`, so no two processes write one queue.
    /// One process at a time sends a request (a `flock` on `upload.lock` around
    /// each). The queues of processes that ended (exited, crashed or were killed
    /// with events left) are adopted by a live process, at start, on every flush
    /// and every ``DurableProvider/Configuration/flushInterval``: their events,
    /// bytes and message ids unchanged, move into its queue and are delivered at
    /// least once.
    case shared(URL)
    /// Memory, at most `limit` bytes of framed events; the oldest are dropped and
    /// counted beyond it. Nothing survives the process.
    case memory(limit: Int)
}

extension DeliveryStorage {
    /// How a queue makes what it wrote durable, on Apple platforms: each write of
    /// events (at most one per ``Configuration/syncInterval``), each acknowledgement
    /// and each state file. Elsewhere (Linux) it is `fsync` whatever the mode, which
    /// also flushes the drive's cache where the file system uses write barriers.
    ///
    /// Every mode survives the app's crash, `kill -9` and the system's crash. The
    /// modes differ on a sudden loss of power (a battery pulled, a desktop unplugged).
    public enum SyncMode: Sendable, Hashable, CaseIterable {
        /// `fcntl(F_BARRIERFSYNC)`: the data goes to the drive, and the drive writes it
        /// before anything written after it. After a sudden power loss the queue is as
        /// it was at an earlier moment: the most recent accepted events may be gone,
        /// none is torn, reordered or sent without its predecessors. Apple's choice for
        /// most writes (its "Reducing disk writes" guidance, and SQLite and Core Data on
        /// its platforms): it costs a fraction of a drive-cache flush. The default.
        /// A purge (opt-out) still ends with `F_FULLFSYNC`, so purged events never
        /// come back.
        case barrier
        /// `fcntl(F_FULLFSYNC)`: the drive flushes its cache before the call returns,
        /// so an accepted event survives a sudden power loss too. Costs a full flush of
        /// the drive's cache per write (milliseconds on Apple SSDs, and slower I/O for
        /// every other app meanwhile).
        case full
    }
}
