import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps the state in `identity.json` in a directory, as JSON, replaced atomically (a
/// synced temporary file renamed over it), each change made under an exclusive `flock`
/// on `identity.lock` beside it. Several processes can share one directory (an app and
/// its extensions in an App Group container): each change reads the newest state
/// first, so none undoes another's.
///
/// A file it cannot read (damaged, truncated, a directory, a permission error, a later
/// layout) is never overwritten: ``load()`` and ``update(_:)`` throw and leave it as it
/// is. ``save(_:)``, which the service calls only once the app chose again, first moves
/// it aside to `identity.json.unreadable-<seconds since 1970>`, and refuses to replace
/// one of a later layout. ``load()`` removes the temporary files that writes
/// interrupted by a kill left (`identity.json.<pid>.tmp`).
package final class FileIdentityStore: IdentityStore {
    /// The directory holding `identity.json`.
    package let directory: URL
    private let file: String
    private let lockFile: String
    /// Opens `identity.json` for reading. A seam for tests: they run as root, whom a
    /// file's mode does not stop.
    private let openForReading: @Sendable (String) -> Int32

    /// Creates a store; the directory is created when the state is first saved.
    /// - Parameters:
    ///   - directory: Where `identity.json` lives.
    ///   - openForReading: Opens the file for reading (`open(2)`): a descriptor, or -1
    ///     with `errno` set.
    package init(
        directory: URL, openForReading: @escaping @Sendable (String) -> Int32 = { open($0, O_RDONLY | O_CLOEXEC) }
    ) {
        self.directory = directory
        self.openForReading = openForReading
        file = directory.appendingPathComponent("identity.json").path
        lockFile = directory.appendingPathComponent("identity.lock").path
    }

    /// Removes the temporary files interrupted writes left, then reads `identity.json`;
    /// `nil` when it does not exist.
    package func load() throws -> StoredIdentity? {
        try withLock {
            removeTemporaryFiles()
            return try readState()
        }
    }

    /// Replaces `identity.json`. One that cannot be read is moved aside first; one of
    /// a later layout is not replaced (this throws).
    package func save(_ identity: StoredIdentity) throws {
        try withLock {
            do {
                _ = try readState()
            } catch let error as IdentityStoreError where error.newerFormat == nil {
                try setAside()
            }
            try writeState(identity)
        }
    }

    /// Reads, changes and replaces `identity.json` under the lock. A file that cannot
    /// be read is left as it is: this throws.
    package func update(_ change: (inout StoredIdentity?) -> Void) throws {
        try withLock {
            var identity = try readState()
            change(&identity)
            if let identity { try writeState(identity) }
        }
    }

    private func readState() throws -> StoredIdentity? {
        guard let data = try readFile() else { return nil }
        do {
            return try JSONDecoder().decode(StoredIdentity.self, from: data)
        } catch let newer as StoredIdentity.NewerFormatError {
            throw IdentityStoreError(path: file, reason: "\(newer); it is left as it is", newerFormat: newer)
        } catch {
            throw IdentityStoreError(path: file, reason: "the state is damaged (\(Self.describe(error))); it is left as it is")
        }
    }

    /// The file's bytes; `nil` when it does not exist.
    private func readFile() throws -> Data? {
        let descriptor = openForReading(file)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw unreadable("opening")
        }
        defer { close(descriptor) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return data }
            guard count > 0 else {
                if errno == EINTR { continue }
                // A directory in its place fails here (EISDIR).
                throw unreadable("reading")
            }
            data.append(contentsOf: buffer[..<count])
        }
    }

    private func unreadable(_ action: String) -> IdentityStoreError {
        IdentityStoreError(
            path: file, reason: "the state cannot be read (\(action) failed: \(String(cString: strerror(errno)))); it is left as it is")
    }

    /// Moves an unreadable `identity.json` aside, never over another file, so that a
    /// new state can be written and the old one is still there to look at.
    private func setAside() throws {
        let stamp = Int(Date().timeIntervalSince1970)
        var target = file + ".unreadable-\(stamp)"
        var copy = 1
        while access(target, F_OK) == 0 {
            target = file + ".unreadable-\(stamp)-\(copy)"
            copy += 1
        }
        guard rename(file, target) == 0 else { throw failure("moving aside", file) }
    }

    private func writeState(_ identity: StoredIdentity) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(identity)
        let temporary = file + Self.temporarySuffix(pid: getpid())
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("creating", temporary) }
        StorageFileAttributes.apply(.identity, to: URL(fileURLWithPath: temporary))
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == data.count, fsync(descriptor) == 0 else {
            let error = failure("writing", temporary)
            close(descriptor)
            unlink(temporary)
            throw error
        }
        close(descriptor)
        guard rename(temporary, file) == 0 else {
            let error = failure("renaming", temporary)
            unlink(temporary)
            throw error
        }
        let folder = open(directory.path, O_RDONLY | O_CLOEXEC)
        if folder >= 0 {
            _ = fsync(folder)
            close(folder)
        }
    }

    /// `.<pid>.tmp`: what a write appends to `identity.json` for its temporary file.
    private static func temporarySuffix(pid: pid_t) -> String { ".\(pid).tmp" }

    /// Whether `name` is a temporary file of a write (`identity.json.<pid>.tmp`).
    private static func isTemporaryFile(_ name: String) -> Bool {
        let prefix = "identity.json."
        guard name.hasPrefix(prefix), name.hasSuffix(".tmp") else { return false }
        let pid = name.dropFirst(prefix.count).dropLast(".tmp".count)
        return !pid.isEmpty && pid.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// Removes the temporary files of writes a kill interrupted. Runs under the lock,
    /// which every write holds, so any such file is stale.
    private func removeTemporaryFiles() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where Self.isTemporaryFile(name) {
            unlink(directory.appendingPathComponent(name).path)
        }
    }

    /// Runs `body` holding the exclusive lock on `identity.lock`, creating the directory if needed.
    private func withLock<T>(_ body: () throws -> T) throws -> T {
        do {
            try createStorageDirectory(directory, as: .identityDirectory)
        } catch {
            throw IdentityStoreError(path: directory.path, reason: "the directory cannot be created: \(error)")
        }
        let descriptor = openLockFile(lockFile)
        guard descriptor >= 0 else { throw failure("opening", lockFile) }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw failure("locking", lockFile) }
        }
        defer { _ = flock(descriptor, LOCK_UN) }
        return try body()
    }

    private func failure(_ action: String, _ path: String) -> IdentityStoreError {
        IdentityStoreError(path: path, reason: "\(action) failed: \(String(cString: strerror(errno)))")
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): return context.debugDescription
        case DecodingError.keyNotFound(let key, _): return "no '\(key.stringValue)'"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "'\(context.codingPath.map(\.stringValue).joined(separator: "."))' has the wrong type"
        default: return "\(error)"
        }
    }
}
