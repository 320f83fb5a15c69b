import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens (and creates if needed) a file used only for its `flock`, read-write and
/// close-on-exec. A file it creates gets the lock files' attributes
/// (``StorageFileAttributes``): a background launch of a locked device must be able to
/// open it. Returns the descriptor, or -1 with `errno` set.
func openLockFile(_ path: String) -> Int32 {
    let created = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    if created >= 0 {
        StorageFileAttributes.apply(.lockFile, to: URL(fileURLWithPath: path))
        return created
    }
    guard errno == EEXIST else { return -1 }
    return open(path, O_RDWR | O_CLOEXEC)
}

/// Creates a directory (and its parents) if it does not exist, giving it the
/// attributes of `kind` when it creates it.
/// - Throws: What `FileManager.createDirectory` throws.
func createStorageDirectory(_ url: URL, as kind: StorageFileKind) throws {
    guard !FileManager.default.fileExists(atPath: url.path) else { return }
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    StorageFileAttributes.apply(kind, to: url)
}
