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
    /// and every ``HTTPBatchProvider/Configuration/flushInterval``: their events,
    /// bytes and message ids unchanged, move into its queue and are delivered at
    /// least once.
    case shared(URL)
    /// Memory, at most `limit` bytes of framed events; the oldest are dropped and
    /// counted beyond it. Nothing survives the process.
    case memory(limit: Int)
}
