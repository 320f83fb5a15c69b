import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps a ``StoredIdentity`` across launches.
///
/// The service calls it on its own threads, never on the caller's: ``load()`` once
/// before it processes the first event, ``update(_:)`` for each change. Anna ships
/// `FileIdentityStore` (the default, in the service's storage directory) and
/// ``MemoryIdentityStore``; an app can keep the state elsewhere (UserDefaults of an App
/// Group) by conforming its own type.
public protocol IdentityStore: Sendable {
    /// Reads the state; `nil` when none was saved yet. Throws when it is unreadable or
    /// corrupt: the service reports the error and starts from a new state.
    func load() throws -> StoredIdentity?
    /// Replaces the state.
    /// - Parameter identity: The state to keep.
    func save(_ identity: StoredIdentity) throws
    /// Changes the state in one step: reads it (`nil` when none or unreadable), lets
    /// `change` edit it, and saves it. `FileIdentityStore` does this under a file lock,
    /// so that an app and its extensions sharing one state do not undo each other's
    /// changes. The default reads with ``load()`` and writes with ``save(_:)``.
    /// - Parameter change: Edits the state.
    func update(_ change: (inout StoredIdentity?) -> Void) throws
}

extension IdentityStore {
    /// Reads with ``load()`` (an unreadable state counts as none), lets `change` edit
    /// it, and saves it with ``save(_:)``.
    public func update(_ change: (inout StoredIdentity?) -> Void) throws {
        var identity = try? load()
        change(&identity)
        if let identity { try save(identity) }
    }
}

/// Why an ``IdentityStore`` could not read or write the state.
package struct IdentityStoreError: Error, Sendable, CustomStringConvertible {
    /// The file concerned.
    package var path: String
    /// What went wrong, in words.
    package var reason: String

    /// Creates an error.
    /// - Parameters:
    ///   - path: The file concerned.
    ///   - reason: What went wrong.
    package init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `path: reason`.
    package var description: String { "\(path): \(reason)" }
}

/// Keeps the state in memory: for tests, and for a service that must not remember
/// anything across launches.
public final class MemoryIdentityStore: IdentityStore {
    private let state: LockedState<StoredIdentity?>

    /// Creates a store.
    /// - Parameter identity: The state it starts with; none by default.
    public init(_ identity: StoredIdentity? = nil) {
        state = LockedState(identity)
    }

    /// The state held.
    public func load() -> StoredIdentity? { state.withLock { $0 } }

    /// Replaces the state held.
    public func save(_ identity: StoredIdentity) { state.withLock { $0 = identity } }

    /// Changes the state under the store's lock.
    public func update(_ change: (inout StoredIdentity?) -> Void) { state.withLock { change(&$0) } }
}

/// Keeps the state in `identity.json` in a directory, as JSON, replaced atomically (a
/// synced temporary file renamed over it), each change made under an exclusive `flock`
/// on `identity.lock` beside it. Several processes can share one directory (an app and
/// its extensions in an App Group container): each change reads the newest state
/// first, so none undoes another's.
///
/// A corrupt file is reported by ``load()``; the service then starts from a new state
/// and its next change replaces the file.
package final class FileIdentityStore: IdentityStore {
    /// The directory holding `identity.json`.
    package let directory: URL
    private let file: String
    private let lockFile: String

    /// Creates a store; the directory is created when the state is first saved.
    /// - Parameter directory: Where `identity.json` lives.
    package init(directory: URL) {
        self.directory = directory
        file = directory.appendingPathComponent("identity.json").path
        lockFile = directory.appendingPathComponent("identity.lock").path
    }

    /// Reads `identity.json`; `nil` when it does not exist.
    package func load() throws -> StoredIdentity? {
        try withLock { try readState() }
    }

    /// Replaces `identity.json`.
    package func save(_ identity: StoredIdentity) throws {
        try withLock { try writeState(identity) }
    }

    /// Reads, changes and replaces `identity.json` under the lock. An unreadable file
    /// counts as none, so the change replaces it.
    package func update(_ change: (inout StoredIdentity?) -> Void) throws {
        try withLock {
            var identity = try? readState()
            change(&identity)
            if let identity { try writeState(identity) }
        }
    }

    private func readState() throws -> StoredIdentity? {
        guard let data = FileManager.default.contents(atPath: file) else {
            if FileManager.default.fileExists(atPath: file) {
                throw IdentityStoreError(path: file, reason: "the file cannot be read")
            }
            return nil
        }
        do {
            return try JSONDecoder().decode(StoredIdentity.self, from: data)
        } catch {
            throw IdentityStoreError(
                path: file, reason: "the state is corrupt (\(Self.describe(error))); a new one replaces it")
        }
    }

    private func writeState(_ identity: StoredIdentity) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(identity)
        let temporary = file + ".\(getpid()).tmp"
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
