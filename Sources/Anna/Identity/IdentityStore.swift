import Foundation

/// Keeps a ``StoredIdentity`` across launches.
///
/// The service calls it on its own threads, never on the caller's: ``load()`` once
/// before it processes the first event, ``update(_:)`` for each change. Anna ships
/// `FileIdentityStore` (the default, in the service's storage directory) and
/// ``MemoryIdentityStore``; an app can keep the state elsewhere (UserDefaults of an App
/// Group) by conforming its own type.
///
/// When ``load()`` throws, the service fails closed: it reports the error once, holds
/// collection as if the user had opted out, and writes nothing until the app chooses
/// again (``AnalyticsService/optIn()``, ``AnalyticsService/optOut()``, a consent change
/// or ``AnalyticsService/reset()``); it then calls ``save(_:)`` with the state it holds,
/// except when the state was of a later layout (decoding ``StoredIdentity`` threw for its
/// `version`), which it never replaces.
public protocol IdentityStore: Sendable {
    /// Reads the state; `nil` when none was saved yet.
    /// - Throws: When the state is unreadable, damaged or of a later layout. The
    ///   service then fails closed (see ``IdentityStore``).
    func load() throws -> StoredIdentity?
    /// Replaces the state.
    /// - Parameter identity: The state to keep.
    func save(_ identity: StoredIdentity) throws
    /// Changes the state in one step: reads it (`nil` when none), lets `change` edit it,
    /// and saves it. `FileIdentityStore` does this under a file lock, so that an app and
    /// its extensions sharing one state do not undo each other's changes. The default
    /// reads with ``load()`` and writes with ``save(_:)``.
    /// - Parameter change: Edits the state.
    /// - Throws: When the state cannot be read (then nothing is written) or written.
    func update(_ change: (inout StoredIdentity?) -> Void) throws
}

extension IdentityStore {
    /// Reads with ``load()``, lets `change` edit the state, and saves it with
    /// ``save(_:)``. A state that cannot be read is not replaced: the error is thrown.
    public func update(_ change: (inout StoredIdentity?) -> Void) throws {
        var identity = try load()
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
    /// Set when the state is of a later layout than this Anna reads.
    package var newerFormat: StoredIdentity.NewerFormatError?

    /// Creates an error.
    /// - Parameters:
    ///   - path: The file concerned.
    ///   - reason: What went wrong.
    ///   - newerFormat: The versions, when the state is of a later layout.
    package init(path: String, reason: String, newerFormat: StoredIdentity.NewerFormatError? = nil) {
        self.path = path
        self.reason = reason
        self.newerFormat = newerFormat
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
