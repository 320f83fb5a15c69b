import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A failure of a `DurableQueue`'s storage, with the system's error number.
///
/// Besides I/O errors (a full disk, `EIO`), the queue reports here:
/// - a directory another queue holds, thrown by the initializer (``DurableProvider``
///   reports it as ``DeliveryError`` with code ``DeliveryError/Code/storageLocked``);
/// - a directory it could not list (operation "listing"): it then writes nothing
///   until a later listing succeeds and counts refused records
///   (``DropReason/storageUnavailable``);
/// - a segment it could not read (operation "opening" or "reading"): kept, retried,
///   never passed (`DurableQueue.Metrics.unreadableSegments`);
/// - a full buffer (operation "buffering", `ENOBUFS`): records refused
///   (``DropReason/bufferFull``).
public struct DurableStorageError: Error, Sendable, CustomStringConvertible {
    /// What the queue was doing.
    public var operation: String
    /// The file involved.
    public var path: String
    /// The system error number (`errno`).
    public var code: Int32

    package init(operation: String, path: String, code: Int32) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// Whether another `DurableQueue`, in this process or another, holds the
    /// storage directory's lock: give each provider and process its own directory.
    package var isLockConflict: Bool {
        operation == "locking" && (code == EWOULDBLOCK || code == EAGAIN)
    }

    /// "writing /path: No space left on device (errno 28)".
    public var description: String {
        if isLockConflict {
            return """
                another DurableQueue, in this or another process, uses \(path); \
                give each provider and process its own directory
                """
        }
        if operation == "buffering" {
            return "buffering for \(path): the writer's buffer is full (maxBufferedBytes); records dropped"
        }
        return "\(operation) \(path): \(String(cString: strerror(code))) (errno \(code))"
    }
}
