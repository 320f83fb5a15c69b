import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Segments as files `<16 hex digits>.seg` in a directory, the state files
/// `cursor` and `stamps` beside them, and `lock`, which the queue holds with
/// `flock(LOCK_EX | LOCK_NB)` while it uses the directory. When the directory belongs
/// to a later format (``QueueFormat``), the segments and state files move to its
/// subfolder `format-<n>/`; `lock` stays the directory's.
///
/// `flock` locks belong to an open file description, so a second queue on the same
/// directory conflicts whether it is in another process or in this one.
/// Files get the attributes ``StorageFileAttributes`` decides when they are created;
/// syncs follow the ``DeliveryStorage/SyncMode``.
///
/// Owned by one queue: its writer queue, and the initializer before that.
final class FileSegmentStore: SegmentStore {
    /// The folder locked, and named in errors and metrics.
    let directory: URL
    /// Where the segments and state files are: `directory`, or its format subfolder.
    private(set) var dataDirectory: URL
    let syncMode: DeliveryStorage.SyncMode
    private var descriptors: [UInt64: Int32] = [:]
    private var lockDescriptor: Int32 = -1
    private var directoryDescriptor: Int32 = -1

    init(directory: URL, syncMode: DeliveryStorage.SyncMode = .barrier) {
        self.directory = directory
        self.dataDirectory = directory
        self.syncMode = syncMode
    }

    deinit {
        releaseLock()
    }

    private func path(_ id: UInt64) -> String {
        let hex = String(id, radix: 16)
        return dataDirectory.appendingPathComponent(String(repeating: "0", count: max(0, 16 - hex.count)) + hex + ".seg").path
    }

    private func path(_ file: StateFile) -> String {
        dataDirectory.appendingPathComponent(file.rawValue).path
    }

    /// Reads `errno` before the path is built: building a string may change it.
    private func fail(_ operation: String, _ path: @autoclosure () -> String) -> DurableStorageError {
        let code = errno
        return DurableStorageError(operation: operation, path: path(), code: code)
    }

    // MARK: Lock

    func acquireLock() throws {
        guard lockDescriptor < 0 else { return }
        do {
            try createStorageDirectory(directory, as: .queueDirectory)
        } catch {
            throw DurableStorageError(operation: "creating", path: directory.path, code: EACCES)
        }
        let lockPath = directory.appendingPathComponent("lock").path
        let descriptor = openLockFile(lockPath)
        guard descriptor >= 0 else { throw fail("locking", lockPath) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let error = fail("locking", directory.path)
            close(descriptor)
            throw error
        }
        lockDescriptor = descriptor
    }

    func releaseLock() {
        for descriptor in descriptors.values { close(descriptor) }
        descriptors.removeAll()
        if directoryDescriptor >= 0 { close(directoryDescriptor) }
        directoryDescriptor = -1
        // Closing the only descriptor of the open file description releases the lock.
        if lockDescriptor >= 0 { close(lockDescriptor) }
        lockDescriptor = -1
    }

    // MARK: Directory

    func segmentIDs() throws -> [UInt64] {
        guard let stream = opendir(dataDirectory.path) else { throw fail("listing", dataDirectory.path) }
        defer { closedir(stream) }
        var ids: [UInt64] = []
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                if errno != 0 { throw fail("listing", dataDirectory.path) }
                break
            }
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
            }
            guard name.hasSuffix(".seg"), name.utf8.count == 20, let id = UInt64(name.dropLast(4), radix: 16) else { continue }
            ids.append(id)
        }
        return ids.sorted()
    }

    func syncDirectory() throws {
        if directoryDescriptor < 0 {
            directoryDescriptor = open(dataDirectory.path, O_RDONLY | O_CLOEXEC)
            guard directoryDescriptor >= 0 else { throw fail("syncing", dataDirectory.path) }
        }
        guard fsync(directoryDescriptor) == 0 else { throw fail("syncing", dataDirectory.path) }
    }

    func useFormatFolder(_ version: UInt32) throws -> String? {
        let folder = directory.appendingPathComponent(QueueFormat.folderName(version), isDirectory: true)
        guard dataDirectory != folder else { return nil }
        do {
            try createStorageDirectory(folder, as: .queueDirectory)
        } catch {
            throw DurableStorageError(operation: "creating", path: folder.path, code: EACCES)
        }
        for descriptor in descriptors.values { close(descriptor) }
        descriptors.removeAll()
        if directoryDescriptor >= 0 { close(directoryDescriptor) }
        directoryDescriptor = -1
        dataDirectory = folder
        // The subfolder's name must survive a crash before anything is written in it.
        try syncParent()
        return folder.path
    }

    private func syncParent() throws {
        let descriptor = open(directory.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw fail("syncing", directory.path) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw fail("syncing", directory.path) }
    }

    func removeTemporaryFiles() {
        for file in StateFile.allCases { unlink(path(file) + ".tmp") }
    }

    // MARK: Segments

    private func descriptor(_ id: UInt64) throws -> Int32 {
        if let descriptor = descriptors[id] { return descriptor }
        let path = path(id)
        let descriptor = open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { throw fail("opening", path) }
        descriptors[id] = descriptor
        return descriptor
    }

    func contents(of id: UInt64) throws -> [UInt8] {
        let descriptor = try descriptor(id)
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw fail("reading", path(id)) }
        // A size beyond Int (a 32-bit device) cannot be a segment this queue wrote.
        guard let size = Int(exactly: info.st_size) else {
            throw DurableStorageError(operation: "reading", path: path(id), code: EFBIG)
        }
        return try read(id, at: 0, count: size)
    }

    func size(of id: UInt64) -> Int? {
        var info = stat()
        guard stat(path(id), &info) == 0 else { return nil }
        return Int(exactly: info.st_size)
    }

    func create(_ id: UInt64) throws {
        let path = path(id)
        // O_EXCL: a segment that exists (a listing that missed it) is never written over.
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw fail("creating", path) }
        descriptors[id] = descriptor
        StorageFileAttributes.apply(.segment, to: URL(fileURLWithPath: path))
    }

    func write(_ bytes: UnsafeRawBufferPointer, to id: UInt64, at offset: Int) throws {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        let descriptor = try descriptor(id)
        var written = 0
        while written < bytes.count {
            let result = pwrite(descriptor, base + written, bytes.count - written, off_t(offset + written))
            if result < 0 {
                if errno == EINTR { continue }
                throw fail("writing", path(id))
            }
            written += result
        }
    }

    func sync(_ id: UInt64) throws {
        let descriptor = try descriptor(id)
        try Self.sync(descriptor, syncMode) { fail("syncing", path(id)) }
    }

    /// `fsync`, or on Apple platforms the fcntl of the mode (where `fsync` leaves the
    /// data in the drive's cache, unordered); `fsync` when the file system refuses it.
    private static func sync(
        _ descriptor: Int32, _ mode: DeliveryStorage.SyncMode, _ failure: () -> DurableStorageError
    ) throws {
        #if canImport(Darwin)
        if fcntl(descriptor, mode == .full ? F_FULLFSYNC : F_BARRIERFSYNC) == 0 { return }
        #endif
        guard fsync(descriptor) == 0 else { throw failure() }
    }

    func flushDrive() throws {
        #if canImport(Darwin)
        // Under `.barrier` what was synced may still be in the drive's cache: a purge
        // must not come undone by a power loss.
        guard syncMode == .barrier else { return }
        try syncDirectory()
        guard fcntl(directoryDescriptor, F_FULLFSYNC) == 0 else { throw fail("syncing", directory.path) }
        #endif
    }

    func truncate(_ id: UInt64, to size: Int) throws {
        let descriptor = try descriptor(id)
        guard ftruncate(descriptor, off_t(size)) == 0 else { throw fail("truncating", path(id)) }
    }

    func read(_ id: UInt64, at offset: Int, count: Int) throws -> [UInt8] {
        let descriptor = try descriptor(id)
        guard count > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: count)
        var total = 0
        try bytes.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            while total < count {
                let result = pread(descriptor, base + total, count - total, off_t(offset + total))
                if result < 0 {
                    if errno == EINTR { continue }
                    throw fail("reading", path(id))
                }
                if result == 0 { break }
                total += result
            }
        }
        bytes.removeLast(count - total)
        return bytes
    }

    func remove(_ id: UInt64) throws {
        if let descriptor = descriptors.removeValue(forKey: id) { close(descriptor) }
        let path = path(id)
        guard unlink(path) == 0 || errno == ENOENT else { throw fail("deleting", path) }
    }

    // MARK: State files

    func loadState(_ file: StateFile) -> [UInt8]? {
        FileManager.default.contents(atPath: path(file)).map { Array($0) }
    }

    func storeState(_ bytes: [UInt8], as file: StateFile) throws {
        let final = path(file)
        let temporary = final + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw fail("writing", temporary) }
        defer { close(descriptor) }
        StorageFileAttributes.apply(.queueState, to: URL(fileURLWithPath: temporary))
        let written = bytes.withUnsafeBytes { writeAll(descriptor, $0) }
        guard written == bytes.count else { throw fail("writing", temporary) }
        if file.isDurable { try Self.sync(descriptor, syncMode) { fail("writing", temporary) } }
        guard rename(temporary, final) == 0 else { throw fail("renaming", temporary) }
    }
}

/// `write(2)` outside the store, whose own `write` method would shadow it.
private func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
    write(descriptor, bytes.baseAddress, bytes.count)
}
