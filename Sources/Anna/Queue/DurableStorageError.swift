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
///   (``DropReason/bufferFull``);
/// - a folder of a later format (operation "reading", `ENOTSUP`), once per queue: the
///   queue leaves the folder as it is and keeps its own records in a subfolder, where
///   the later version finds them (<doc:DurableDelivery#Formats-on-disk>).
public struct DurableStorageError: Error, Sendable, CustomStringConvertible {
    /// What the queue was doing.
    public var operation: String
    /// The file involved.
    public var path: String
    /// The system error number (`errno`).
    public var code: Int32

    /// The format `path` is in and the newest this version reads, when it is later.
    package var newerFormat: (found: UInt32, supported: UInt32)?
    /// The subfolder the queue keeps its own records in meanwhile.
    package var formatFolder: String?

    package init(operation: String, path: String, code: Int32) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// A file of a later format than this version's in the queue's folder.
    package static func newerFormat(
        path: String, found: UInt32, supported: UInt32, folder: String
    ) -> DurableStorageError {
        var error = DurableStorageError(operation: "reading", path: path, code: ENOTSUP)
        error.newerFormat = (found, supported)
        error.formatFolder = folder
        return error
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
        if let newerFormat, let formatFolder {
            return """
                \(path) is in queue format \(newerFormat.found), written by a later Anna; this Anna reads \
                formats 0 to \(newerFormat.supported): it leaves that folder's files as they are and keeps \
                its own events in \(formatFolder), where the later version delivers them
                """
        }
        if operation == "buffering" {
            return "buffering for \(path): the writer's buffer is full (maxBufferedBytes); records dropped"
        }
        return "\(operation) \(path): \(String(cString: strerror(code))) (errno \(code))"
    }
}
