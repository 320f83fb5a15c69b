import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A folder that several processes (an app and its extensions, in an App Group
/// container) deliver from together, ``DeliveryStorage/shared(_:)``:
///
/// ```
/// <folder>/queues/<process>.<n>/   one process's queue, claimed by its flock
/// <folder>/upload.lock             held (flock) around each request
/// <folder>/claim.lock              held (flock) while a queue's lock is taken
/// ```
///
/// Each process claims the first `queues/<process>.<n>` whose lock is free, so no
/// two processes ever write one queue. A queue whose lock is free belongs to a
/// process that ended (or is suspended): a live process *adopts* it by moving its
/// records, bytes unchanged, into its own queue, acknowledging them in the adopted
/// queue only once they are persisted in its own; a crash in between sends them
/// twice, with the same message id. One process at a time sends a request: the
/// uploader holds `upload.lock` around each one.
///
/// Taking a queue's lock, to claim it or to see whether it is an orphan, happens
/// under `claim.lock`: otherwise an adopting process that looks at the queue a
/// starting process just created holds its lock for that moment, and the starting
/// process claims the next number (no event is lost, but a queue is left over).
///
/// Under ``DeliveryStorage/LockPolicy/aroundIO`` (an app extension) the uploader
/// holds the `flock` on `upload.lock` only to read and write an ``UploadLease`` in it,
/// and sends under the lease; a process that takes the `flock` also honours a live
/// lease of another process. Adopted queues are held for the whole adoption whatever
/// the policy.
///
/// Threads: `claim` runs on the caller's thread; adoption and the upload lock
/// belong to the uploader thread (and to `purge`, while the uploader is paused).
// @unchecked: adoption state and the upload lock are the uploader thread's, as said above.
final class SharedDeliveryFolder: @unchecked Sendable {
    let folder: URL
    let queues: URL
    private let process: String
    private let uploadLockPath: String
    /// The open `upload.lock`, or -1; the uploader thread's alone (see above).
    private var uploadDescriptor: Int32 = -1
    /// Whether this process wrote the lease in `upload.lock` (`.aroundIO`); the uploader thread's.
    private var holdsLease = false
    /// Whether this process gave the lock back and its lease is still to be erased
    /// (``eraseLease()``); the uploader thread's.
    private var leaseToErase = false
    private let lockPolicy: DeliveryStorage.LockPolicy
    private let syncMode: DeliveryStorage.SyncMode
    /// How long an upload lease lasts: a request's deadline and a margin.
    private let uploadLease: Duration
    /// This folder's lease holder: the process, and a number of this instance's own.
    private let leaseHolder = UploadLease.Holder(process: getpid(), folder: UInt64.random(in: 1...UInt64.max))

    /// The most queues of one process name tried before giving up.
    static let maxQueuesPerProcess = 1000

    init(
        folder: URL, process: String = ProcessInfo.processInfo.processName,
        lockPolicy: DeliveryStorage.LockPolicy = .whileRunning, uploadLease: Duration = .seconds(16),
        syncMode: DeliveryStorage.SyncMode = .barrier
    ) {
        self.folder = folder
        self.syncMode = syncMode
        self.lockPolicy = lockPolicy
        self.uploadLease = uploadLease
        queues = folder.appendingPathComponent("queues", isDirectory: true)
        self.process = Self.safeName(process)
        uploadLockPath = folder.appendingPathComponent("upload.lock").path
        claimLockPath = folder.appendingPathComponent("claim.lock").path
    }

    private let claimLockPath: String

    /// How long taking a queue's lock waits for `claim.lock` before going on without
    /// it: the lock only keeps queue numbers tidy, and a process suspended while
    /// holding it must not stop the others (``ClaimLockWait``).
    static let claimLockWait: Duration = ClaimLockWait.patience

    /// Runs `body` holding `claim.lock`, or without it once ``claimLockWait`` passed,
    /// waiting on the caller's thread: for ``claim()`` only, whose callers (a queue's
    /// initializer, the writer taking its lock back) return its result synchronously
    /// and have no scheduler to come back from. Adoption and purges wait on their
    /// driver's timer instead (``withClaimLock(ifFree:_:)``).
    func withClaimLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let descriptor = openLockFile(claimLockPath)
        defer { if descriptor >= 0 { close(descriptor) } }
        if descriptor >= 0 {
            let clock = ContinuousClock()
            var wait: ClaimLockWait?
            while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
                let now = clock.now
                if wait == nil { wait = ClaimLockWait(busyAt: now) } else { wait?.busy(now: now) }
                guard let retryAt = wait?.retryAt else { break }
                usleep(UInt32(clamping: max(.zero, retryAt - clock.now).saturatingNanoseconds / 1000))
            }
        }
        return try body()
    }

    /// Runs `body` holding `claim.lock` taken without waiting, or without it when
    /// `ifFree` is `false` (the caller's ``ClaimLockWait`` ran out); `nil` without
    /// running it when the lock is busy: the caller tries again when its wait says.
    func withClaimLock<Result>(ifFree: Bool, _ body: () throws -> Result) rethrows -> Result? {
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        guard ifFree else { return try body() }
        let descriptor = openLockFile(claimLockPath)
        defer { if descriptor >= 0 { close(descriptor) } }
        if descriptor >= 0, flock(descriptor, LOCK_EX | LOCK_NB) != 0 { return nil }
        return try body()
    }

    /// Letters, digits, `-` and `_` of a process name, at most 64: a directory name
    /// on every file system.
    static func safeName(_ name: String) -> String {
        let kept = String(name.unicodeScalars.filter { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || scalar == "_")
        }.prefix(64).map(Character.init))
        return kept.isEmpty ? "process" : kept
    }

    // MARK: Claiming

    /// Locks the first free `queues/<process>.<n>` and returns its store, locked.
    /// - Throws: ``DurableStorageError`` when the folder cannot be created or locked
    ///   for another reason than a conflict, or when every queue name is taken.
    func claim() throws -> FileSegmentStore {
        try? createStorageDirectory(queues, as: .sharedQueues)
        for number in 1...Self.maxQueuesPerProcess {
            let store = FileSegmentStore(
                directory: queues.appendingPathComponent("\(process).\(number)", isDirectory: true), syncMode: syncMode)
            do {
                try withClaimLock { try store.acquireLock() }
                return store
            } catch let error as DurableStorageError where error.isLockConflict {
                continue
            }
        }
        throw DurableStorageError(operation: "claiming a queue in", path: queues.path, code: EMFILE)
    }

    /// The queue directories present, in name order.
    func queueDirectories() -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: queues.path)) ?? []
        return names.sorted().map { queues.appendingPathComponent($0, isDirectory: true) }
    }

    // MARK: Adoption

    /// What adopting found.
    struct Adoption {
        /// Queues whose lock was free, other than the caller's.
        var queues = 0
        /// Records moved into the caller's queue.
        var records = 0
        /// The queue directory (its name) where adopting stopped because `claim.lock`
        /// was busy: the caller goes on from there later (``ClaimLockWait``); `nil`
        /// when it went through (or was stopped).
        var waitsForClaimLockAt: String?
    }

    /// Moves the records of every queue no live process holds into `target`: read a
    /// chunk, append it to `target`, wait until it is persisted there, then
    /// acknowledge it in the adopted queue. A chunk that failed to persist is left
    /// where it was, for a later adoption. Stops early when `shouldStop` says so.
    /// Runs on the uploader thread.
    ///
    /// Queue directories are taken in name order, from `start` (a name; `nil`: the
    /// first). A queue's lock is taken under `claim.lock`, without waiting for it:
    /// when it is busy, adopting stops there (``Adoption/waitsForClaimLockAt``), and
    /// the uploader's machine has it go on from that queue after a pause, or without
    /// `claim.lock` for that queue (`withoutClaimLock`) once its wait ran out.
    func adoptOrphans(
        into target: DurableQueue, configuration: DeliveryStorage.Configuration,
        errorHandler: (@Sendable (DurableStorageError) -> Void)?, from start: String? = nil,
        withoutClaimLock: Bool = false, shouldStop: () -> Bool
    ) -> Adoption {
        var adoption = Adoption()
        for directory in queueDirectories() {
            let name = directory.lastPathComponent
            if let start, name < start { continue }
            if shouldStop() { break }
            // Under `.aroundIO` the target's own queue is free between its operations:
            // checked again once locked, as the target may have moved there meanwhile.
            if directory.path == target.location { continue }
            let orphan: DurableQueue
            switch open(directory, configuration: configuration, errorHandler: errorHandler,
                claimLockIfFree: !(withoutClaimLock && name == start))
            {
            case .claimLockBusy:
                adoption.waitsForClaimLockAt = name
                return adoption
            case .notAnOrphan:
                continue
            case .orphan(let queue):
                orphan = queue
            }
            guard directory.path != target.location else { continue }
            adoption.queues += 1
            while !shouldStop() {
                let records = orphan.readNow(maxRecords: 500, maxBytes: 1 << 20)
                guard !records.isEmpty else { break }
                var batch = DurableQueue.Batch(reservingCapacity: records.reduce(0) { $0 + $1.payload.count + 16 })
                for record in records { record.payload.withUnsafeBytes { batch.append($0) } }
                let before = target.metrics
                guard target.append(&batch) == records.count else { break }
                target.syncNow()
                let after = target.metrics
                // Not persisted in the target (a full disk, storage released): leave them in the orphan.
                guard after.dropped[.writeFailed, default: 0] == before.dropped[.writeFailed, default: 0],
                    after.dropped[.storageUnavailable, default: 0] == before.dropped[.storageUnavailable, default: 0],
                    after.persisted - before.persisted >= records.count
                else { break }
                orphan.acknowledgeNow(records[...])
                adoption.records += records.count
            }
        }
        return adoption
    }

    /// Deletes the records of every queue no live process holds (the user opted out).
    /// `own` is the caller's queue, which purges itself. While `claim.lock` is busy
    /// the task is suspended between tries (``ClaimLockWait``): no thread waits.
    func purgeOrphans(
        own: DurableQueue, configuration: DeliveryStorage.Configuration,
        errorHandler: (@Sendable (DurableStorageError) -> Void)?
    ) async {
        let clock = ContinuousClock()
        for directory in queueDirectories() where directory.path != own.location {
            var wait: ClaimLockWait?
            var opened: Opened
            while true {
                opened = open(directory, configuration: configuration, errorHandler: errorHandler,
                    claimLockIfFree: wait?.isOver != true)
                guard case .claimLockBusy = opened else { break }
                let now = clock.now
                if wait == nil { wait = ClaimLockWait(busyAt: now) } else { wait?.busy(now: now) }
                guard let retryAt = wait?.retryAt else { continue }
                do {
                    try await Task.sleep(until: retryAt, clock: clock)
                } catch {
                    // Cancelled: no more waiting; the queue's lock is taken without `claim.lock`.
                    opened = open(directory, configuration: configuration, errorHandler: errorHandler, claimLockIfFree: false)
                    break
                }
            }
            guard case .orphan(let orphan) = opened, directory.path != own.location else { continue }
            await orphan.purge()
        }
    }

    /// What opening a queue directory as an orphan found.
    private enum Opened {
        /// No process holds it: opened, locked for the whole adoption.
        case orphan(DurableQueue)
        /// A process holds it, or it is no queue.
        case notAnOrphan
        /// `claim.lock` was busy: nothing was tried.
        case claimLockBusy
    }

    /// The queue in `directory` if no process holds it, its lock taken under
    /// `claim.lock` taken without waiting (without it when `claimLockIfFree` is `false`).
    private func open(
        _ directory: URL, configuration: DeliveryStorage.Configuration,
        errorHandler: (@Sendable (DurableStorageError) -> Void)?, claimLockIfFree: Bool
    ) -> Opened {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue
        else { return .notAnOrphan }
        let store = FileSegmentStore(directory: directory, syncMode: syncMode)
        let locked: Bool?
        do {
            locked = try withClaimLock(ifFree: claimLockIfFree) { try store.acquireLock() }.map { true }
        } catch {
            return .notAnOrphan
        }
        guard locked != nil else { return .claimLockBusy }
        // Held for the whole adoption: its records are read, then acknowledged.
        var configuration = configuration
        configuration.lockPolicy = .whileRunning
        guard let queue = try? DurableQueue(
            store: store, configuration: configuration, location: directory.path, errorHandler: errorHandler)
        else { return .notAnOrphan }
        return .orphan(queue)
    }

    // MARK: Upload lock

    /// Takes `upload.lock` without waiting; `false` when another process holds it
    /// (its `flock`, or a live lease). Nothing stays open when it fails, so a process
    /// suspended between two tries holds nothing. Under `.aroundIO` nothing stays open
    /// when it succeeds either: the lease stands for the lock.
    func tryLockUploads() -> Bool {
        guard uploadDescriptor < 0, !holdsLease else { return true }
        let descriptor = openLockFile(uploadLockPath)
        // Without a lock file uploading is still correct, only not one process at a time.
        guard descriptor >= 0 else { return true }
        let now = UploadLease.now()
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0,
            UploadLease.read(descriptor)?.blocks(leaseHolder, now: now, longest: uploadLease) != true
        else {
            close(descriptor)
            return false
        }
        switch lockPolicy {
        case .whileRunning:
            uploadDescriptor = descriptor
        case .aroundIO:
            let expiry = now &+ UInt64(clamping: uploadLease.saturatingNanoseconds)
            UploadLease.write(UploadLease(holder: leaseHolder, expiry: expiry), to: descriptor)
            close(descriptor)
            holdsLease = true
            // The lease just written replaces one left to erase.
            leaseToErase = false
        }
        return true
    }

    /// Gives `upload.lock` up: closing the only descriptor of its open file
    /// description releases the `flock`; a lease of this process is erased, under the
    /// `flock`, taken without waiting.
    /// - Returns: `false` when the lease is still in the file: another process held the
    ///   `flock` at that instant. The uploader's machine then has ``eraseLease()`` tried
    ///   again (``UploadStateMachine/Step/eraseUploadLease``), or leaves the lease to
    ///   expire; nothing stays open meanwhile.
    func unlockUploads() -> Bool {
        if uploadDescriptor >= 0 {
            close(uploadDescriptor)
            uploadDescriptor = -1
        }
        guard holdsLease else { return true }
        holdsLease = false
        leaseToErase = true
        return eraseLease()
    }

    /// One try, without waiting, at erasing the lease ``unlockUploads()`` left in
    /// `upload.lock`. `true` when nothing is left to erase: erased, or the file is gone,
    /// or no lease of this process's is waiting; `false` while another process holds
    /// the `flock`. A lease never erased expires by itself.
    func eraseLease() -> Bool {
        guard leaseToErase else { return true }
        let descriptor = openFile(uploadLockPath, O_RDWR | O_CLOEXEC, 0)
        guard descriptor >= 0 else {
            leaseToErase = false
            return true
        }
        // Closing the descriptor gives the `flock` back, whichever way this ends.
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return false }
        if UploadLease.read(descriptor)?.holder == leaseHolder { UploadLease.write(nil, to: descriptor) }
        leaseToErase = false
        return true
    }
}

/// `open(2)`, outside the type whose own `open` method would shadow it.
private func openFile(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
    open(path, flags, mode)
}
