#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
#elseif canImport(Musl)
import Musl
private let systemWrite = Musl.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif

/// Replaces a file's contents only when they change, taking the new contents in
/// chunks as they are rendered, so a generated file of megabytes is never held whole.
///
/// While the chunks match the file in place, they are compared with it as it is read
/// (into one 64 KiB buffer) and nothing is written: builds that depend on the file
/// are not redone for nothing. At the first difference, a temporary file beside it
/// gets the part that matched and everything after; ``commit()`` renames it over the
/// file, so a reader sees the old contents or the new ones, never a mix, and a failed
/// write leaves the old file as it was. A replaced file keeps its permissions; a new
/// one gets the process's (0666 less the umask).
///
/// Made with `writing: false`, it only compares: `anna generate --check` learns
/// whether the file differs and nothing is written.
///
/// Used from one thread at a time: `anna generate` and the build plugin's tool make
/// one per output file.
package final class FileUpdate {
    /// A file system call that failed, with what it was doing.
    struct Failure: Error, CustomStringConvertible {
        /// What failed, e.g. "creating a file in Generated".
        let action: String
        /// The `errno` it set.
        let code: Int32

        var description: String { "\(action): \(String(cString: strerror(code)))" }
    }

    private static let chunkSize = 64 * 1024
    private let path: String
    /// Whether a difference is written (`true`) or only noted in ``differs``.
    private let writing: Bool
    /// A difference was found while only comparing.
    private var differs = false
    /// The file in place while the new contents match it so far; `nil` when there is none.
    private var existing: UnsafeMutablePointer<FILE>?
    private var existingSize = 0
    private var existingMode: mode_t?
    /// How many bytes from the start the new contents and the file in place share.
    private var matched = 0
    /// The file the new contents go to once they differ.
    private var temporary: (descriptor: Int32, path: String)?
    /// The first error; later chunks are ignored, and ``commit()`` throws it.
    private var failure: (any Error)?
    private let buffer = UnsafeMutableRawPointer.allocate(byteCount: FileUpdate.chunkSize, alignment: 16)

    /// Starts replacing, or comparing with, the contents of the file at `path` (which
    /// need not exist).
    /// - Parameters:
    ///   - path: The file.
    ///   - writing: `false` to compare only: ``commit()`` then says whether the file
    ///     differs and changes nothing.
    package init(path: String, writing: Bool = true) {
        self.path = path
        self.writing = writing
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, let file = fopen(path, "rb") {
            existing = file
            existingSize = Int(status.st_size)
            existingMode = status.st_mode & 0o7777
        }
    }

    deinit {
        if let existing { fclose(existing) }
        if let temporary {  // not committed: leave nothing behind
            close(temporary.descriptor)
            unlink(temporary.path)
        }
        buffer.deallocate()
    }

    /// Takes the next bytes of the new contents.
    package func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard failure == nil, !differs, !bytes.isEmpty else { return }
        if temporary == nil {
            if continuesExistingFile(with: bytes) {
                matched += bytes.count
                return
            }
            guard writing else {
                differs = true
                return
            }
            guard begin() else { return }
        }
        writeOut(bytes)
    }

    /// Ends the new contents: renames the temporary file over the file in place, or
    /// leaves the file alone when it holds exactly the new contents.
    /// - Returns: Whether the file was written; when only comparing, whether it differs
    ///   (or is missing).
    /// - Throws: The first error of the file system; nothing is replaced then.
    package func commit() throws -> Bool {
        if let failure { throw failure }
        if temporary == nil {
            if !differs, let existing, matched == existingSize, fgetc(existing) == EOF { return false }
            guard writing else { return true }
            guard begin() else { throw failure! }
        }
        guard let (descriptor, temporaryPath) = temporary else { return false }
        temporary = nil
        guard close(descriptor) == 0 else {
            let error = Failure(action: "writing \(temporaryPath)", code: errno)
            unlink(temporaryPath)
            throw error
        }
        guard rename(temporaryPath, path) == 0 else {
            let error = Failure(action: "replacing \(path)", code: errno)
            unlink(temporaryPath)
            throw error
        }
        return true
    }

    /// Whether the file in place continues, after the bytes matched so far, with `bytes`.
    private func continuesExistingFile(with bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let existing, let start = bytes.baseAddress, matched + bytes.count <= existingSize else { return false }
        var offset = 0
        while offset < bytes.count {
            let count = fread(buffer, 1, min(Self.chunkSize, bytes.count - offset), existing)
            guard count > 0, memcmp(buffer, start + offset, count) == 0 else { return false }
            offset += count
        }
        return true
    }

    /// Creates the temporary file (and the folder, when missing) and copies into it the
    /// part of the file in place that the new contents share. Records the error and
    /// returns `false` when that fails.
    private func begin() -> Bool {
        let (directory, name) = Self.split(path)
        if !directory.isEmpty, let error = Self.makeDirectories(directory) {
            failure = error
            return false
        }
        let prefix = directory.isEmpty ? "." : directory + "/."
        while temporary == nil {
            let candidate = prefix + name + "." + String(UInt64.random(in: .min ... .max), radix: 36) + ".tmp"
            let descriptor = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if descriptor >= 0 {
                temporary = (descriptor, candidate)
            } else if errno != EEXIST {
                failure = Failure(action: "creating a file in \(directory.isEmpty ? "." : directory)", code: errno)
                return false
            }
        }
        if let existingMode, let temporary { fchmod(temporary.descriptor, existingMode) }
        if let existing {
            defer {
                fclose(existing)
                self.existing = nil
            }
            guard fseeko(existing, 0, SEEK_SET) == 0 else {
                failure = Failure(action: "reading \(path)", code: errno)
                return false
            }
            var copied = 0
            while copied < matched {
                let count = fread(buffer, 1, min(Self.chunkSize, matched - copied), existing)
                guard count > 0 else {
                    failure = Failure(action: "reading \(path)", code: ferror(existing) != 0 ? errno : EIO)
                    return false
                }
                writeOut(UnsafeBufferPointer(start: buffer.assumingMemoryBound(to: UInt8.self), count: count))
                copied += count
            }
        }
        return failure == nil
    }

    /// A path's folder (empty for a bare name) and last component; trailing slashes
    /// are not part of either.
    static func split(_ path: String) -> (directory: String, name: String) {
        var path = Substring(path)
        while path.count > 1, path.last == "/" { path.removeLast() }
        guard let slash = path.lastIndex(of: "/") else { return ("", String(path)) }
        let name = String(path[path.index(after: slash)...])
        var directory = path[..<slash]
        while directory.count > 1, directory.last == "/" { directory.removeLast() }
        return (directory.isEmpty ? "/" : String(directory), name)
    }

    /// Creates a folder and the folders above it that are missing (`mkdir -p`).
    /// - Returns: The error, or `nil` when the folder exists.
    static func makeDirectories(_ directory: String) -> Failure? {
        var status = stat()
        if stat(directory, &status) == 0 {
            return status.st_mode & S_IFMT == S_IFDIR ? nil : Failure(action: "creating the folder \(directory)", code: ENOTDIR)
        }
        let parent = split(directory).directory
        if !parent.isEmpty, parent != directory, let error = makeDirectories(parent) { return error }
        if mkdir(directory, 0o777) == 0 || errno == EEXIST { return nil }
        return Failure(action: "creating the folder \(directory)", code: errno)
    }

    /// Writes bytes to the temporary file, all of them or the error.
    private func writeOut(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard failure == nil, let temporary else { return }
        if let code = writeAll(bytes, to: temporary.descriptor) {
            failure = Failure(action: "writing \(temporary.path)", code: code)
        }
    }
}

/// Writes all of `bytes` to a file descriptor, again after a partial write or an
/// interruption.
/// - Returns: `nil`, or the `errno` of the write that failed.
package func writeAll(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: Int32) -> Int32? {
    guard var start = bytes.baseAddress else { return nil }
    var remaining = bytes.count
    while remaining > 0 {
        let written = systemWrite(descriptor, start, remaining)
        if written < 0 {
            if errno == EINTR { continue }
            return errno
        }
        start += written
        remaining -= written
    }
    return nil
}
