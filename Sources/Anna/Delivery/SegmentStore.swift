import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a ``DurableQueue`` keeps its segments and its acknowledgement cursor:
/// files in a directory, or memory. Used only on the queue's writer queue.
protocol SegmentStore: AnyObject {
    /// Makes the store ready (creates the directory); called once, on the writer queue.
    func prepare() throws
    /// The segments present, in ascending order.
    func segmentIDs() throws -> [UInt64]
    /// A segment's whole contents, for recovery.
    func contents(of id: UInt64) throws -> [UInt8]
    /// When a segment was last written, if known.
    func modificationDate(of id: UInt64) -> Date?
    /// Creates an empty segment.
    func create(_ id: UInt64) throws
    /// Writes `bytes` at `offset` of a segment.
    func write(_ bytes: UnsafeRawBufferPointer, to id: UInt64, at offset: Int) throws
    /// Makes everything written to a segment (and its creation) durable.
    func sync(_ id: UInt64) throws
    /// Cuts a segment back to `size` bytes after a failed write.
    func truncate(_ id: UInt64, to size: Int) throws
    /// Reads up to `count` bytes at `offset`.
    func read(_ id: UInt64, at offset: Int, count: Int) throws -> [UInt8]
    /// Deletes a segment.
    func remove(_ id: UInt64) throws
    /// The stored cursor, if any.
    func loadCursor() -> [UInt8]?
    /// Replaces the stored cursor atomically and durably.
    func storeCursor(_ bytes: [UInt8]) throws
}

/// An I/O failure of the queue's storage, with the system's error number.
public struct DurableStorageError: Error, Sendable, CustomStringConvertible {
    /// What the queue was doing.
    public var operation: String
    /// The file involved.
    public var path: String
    /// The system error number (`errno`).
    public var code: Int32

    /// "writing /path: No space left on device (errno 28)".
    public var description: String {
        "\(operation) \(path): \(String(cString: strerror(code))) (errno \(code))"
    }
}

/// Segments as files `<16 hex digits>.seg` in a directory, and the cursor in `cursor`.
final class FileSegmentStore: SegmentStore {
    let directory: URL
    private var descriptors: [UInt64: Int32] = [:]

    init(directory: URL) {
        self.directory = directory
    }

    deinit {
        for descriptor in descriptors.values { close(descriptor) }
    }

    private func path(_ id: UInt64) -> String {
        let hex = String(id, radix: 16)
        return directory.appendingPathComponent(String(repeating: "0", count: max(0, 16 - hex.count)) + hex + ".seg").path
    }

    /// Reads `errno` before the path is built: building a string may change it.
    private func fail(_ operation: String, _ path: @autoclosure () -> String) -> DurableStorageError {
        let code = errno
        return DurableStorageError(operation: operation, path: path(), code: code)
    }

    func prepare() throws {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw DurableStorageError(operation: "creating", path: directory.path, code: EACCES)
        }
    }

    func segmentIDs() throws -> [UInt64] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.compactMap { name -> UInt64? in
            guard name.hasSuffix(".seg"), name.count == 20 else { return nil }
            return UInt64(name.dropLast(4), radix: 16)
        }.sorted()
    }

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
        return try read(id, at: 0, count: Int(info.st_size))
    }

    func modificationDate(of id: UInt64) -> Date? {
        var info = stat()
        guard stat(path(id), &info) == 0 else { return nil }
        #if canImport(Darwin)
        return Date(timeIntervalSince1970: TimeInterval(info.st_mtimespec.tv_sec))
        #else
        return Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec))
        #endif
    }

    func create(_ id: UInt64) throws {
        let path = path(id)
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw fail("creating", path) }
        descriptors[id] = descriptor
        // The new name must be durable too, or a crash could lose the whole file.
        let directoryDescriptor = open(directory.path, O_RDONLY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            _ = fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer, to id: UInt64, at offset: Int) throws {
        let descriptor = try descriptor(id)
        var written = 0
        while written < bytes.count {
            let result = pwrite(descriptor, bytes.baseAddress! + written, bytes.count - written, off_t(offset + written))
            if result < 0 {
                if errno == EINTR { continue }
                throw fail("writing", path(id))
            }
            written += result
        }
    }

    func sync(_ id: UInt64) throws {
        let descriptor = try descriptor(id)
        #if canImport(Darwin)
        // fsync on Apple platforms leaves data in the drive's cache; F_FULLFSYNC does not.
        if fcntl(descriptor, F_FULLFSYNC) == 0 { return }
        #endif
        guard fsync(descriptor) == 0 else { throw fail("syncing", path(id)) }
    }

    func truncate(_ id: UInt64, to size: Int) throws {
        let descriptor = try descriptor(id)
        guard ftruncate(descriptor, off_t(size)) == 0 else { throw fail("truncating", path(id)) }
    }

    func read(_ id: UInt64, at offset: Int, count: Int) throws -> [UInt8] {
        let descriptor = try descriptor(id)
        var bytes = [UInt8](repeating: 0, count: count)
        var total = 0
        try bytes.withUnsafeMutableBytes { buffer in
            while total < count {
                let result = pread(descriptor, buffer.baseAddress! + total, count - total, off_t(offset + total))
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

    func loadCursor() -> [UInt8]? {
        FileManager.default.contents(atPath: directory.appendingPathComponent("cursor").path).map { Array($0) }
    }

    func storeCursor(_ bytes: [UInt8]) throws {
        let temporary = directory.appendingPathComponent("cursor.tmp").path
        let final = directory.appendingPathComponent("cursor").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw fail("writing", temporary) }
        defer { close(descriptor) }
        let written = bytes.withUnsafeBytes { writeAll(descriptor, $0) }
        guard written == bytes.count, fsync(descriptor) == 0 else { throw fail("writing", temporary) }
        guard rename(temporary, final) == 0 else { throw fail("renaming", temporary) }
    }
}

/// Segments in memory, for ``DeliveryStorage/memory(limit:)``: the same queue,
/// without surviving the process.
final class MemorySegmentStore: SegmentStore {
    private var segments: [UInt64: [UInt8]] = [:]
    private var cursor: [UInt8]?

    func prepare() throws {}
    func segmentIDs() throws -> [UInt64] { segments.keys.sorted() }
    func contents(of id: UInt64) throws -> [UInt8] { segments[id] ?? [] }
    func modificationDate(of id: UInt64) -> Date? { nil }
    func create(_ id: UInt64) throws { segments[id] = [] }

    func write(_ bytes: UnsafeRawBufferPointer, to id: UInt64, at offset: Int) throws {
        var segment = segments[id] ?? []
        if segment.count > offset { segment.removeLast(segment.count - offset) }
        segment.append(contentsOf: bytes)
        segments[id] = segment
    }

    func sync(_ id: UInt64) throws {}

    func truncate(_ id: UInt64, to size: Int) throws {
        if let count = segments[id]?.count, count > size { segments[id]?.removeLast(count - size) }
    }

    func read(_ id: UInt64, at offset: Int, count: Int) throws -> [UInt8] {
        guard let segment = segments[id], offset < segment.count else { return [] }
        return Array(segment[offset..<min(segment.count, offset + count)])
    }

    func remove(_ id: UInt64) throws { segments[id] = nil }
    func loadCursor() -> [UInt8]? { cursor }
    func storeCursor(_ bytes: [UInt8]) throws { cursor = bytes }
}

/// `write(2)` outside the store, whose own `write` method would shadow it.
private func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
    write(descriptor, bytes.baseAddress, bytes.count)
}
