import Foundation

/// Where a `DurableQueue` (and so an ``HTTPBatchProvider``) keeps events until a
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
