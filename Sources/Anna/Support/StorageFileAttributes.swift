import Foundation

/// The files Anna keeps, by what they hold: what decides their data protection
/// and whether a backup takes them.
enum StorageFileKind: CaseIterable, Sendable {
    /// A queue's directory (``DeliveryStorage/directory(_:)``, or `queues/<process>.<n>`).
    case queueDirectory
    /// A shared folder's `queues/` directory.
    case sharedQueues
    /// A queue's segment (`<id>.seg`).
    case segment
    /// A queue's cursor or age stamps.
    case queueState
    /// A `flock` file: a queue's `lock`, `claim.lock`, `upload.lock`, `identity.lock`.
    case lockFile
    /// The directory holding `identity.json`.
    case identityDirectory
    /// `identity.json`.
    case identity
}

/// What Anna asks of the system for one of its files: the data-protection class and
/// exclusion from backups. Decided here for every platform and tested on Linux; only
/// ``apply(to:)`` touches Apple API, and does nothing elsewhere.
///
/// - Protection: every file, lock files too, gets "complete until first user
///   authentication", so that a background launch (a push, a background fetch, an
///   extension) can read the queue and the identity and take the locks while the
///   device is locked after its first unlock. Set explicitly: an app whose default
///   class is "complete" (the Data Protection entitlement) would otherwise make the
///   queue unreadable in the background.
/// - Backup: the queues are excluded (events in transit, worth nothing on another
///   device, and restored there they would be sent again from the wrong device).
///   The identity is kept in backups: it holds the user's consent and opt-out
///   choices, which must survive a restore, and the anonymous id, which then goes on
///   with the same history on the new device as a restored app's own data would.
struct StorageFileAttributes: Equatable, Sendable {
    /// Readable by background work once the device was unlocked after boot.
    var protectsUntilFirstUnlock: Bool
    /// Set on the item; a directory's exclusion covers what it contains.
    var isExcludedFromBackup: Bool

    /// The attributes a kind of file gets.
    static func of(_ kind: StorageFileKind) -> StorageFileAttributes {
        switch kind {
        case .queueDirectory, .sharedQueues:
            return StorageFileAttributes(protectsUntilFirstUnlock: true, isExcludedFromBackup: true)
        case .segment, .queueState, .lockFile, .identityDirectory, .identity:
            return StorageFileAttributes(protectsUntilFirstUnlock: true, isExcludedFromBackup: false)
        }
    }

    /// Applies the attributes of `kind` to the item at `url`: on Apple platforms only.
    /// Failures are ignored: the file stays usable with the system's defaults.
    static func apply(_ kind: StorageFileKind, to url: URL) {
        #if canImport(Darwin)
        let attributes = of(kind)
        if attributes.protectsUntilFirstUnlock {
            try? FileManager.default.setAttributes(
                [.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication], ofItemAtPath: url.path)
        }
        if attributes.isExcludedFromBackup {
            try? (url as NSURL).setResourceValue(true, forKey: .isExcludedFromBackupKey)
        }
        #endif
    }
}
