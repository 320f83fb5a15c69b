import Foundation

extension DurableQueue {
    /// The queue's disk side: a value that the queue's serial writer queue owns (its
    /// operations enter in order through ``DurableQueue/Driver``), kept in a
    /// ``QueueBound``, so the ownership is checked in the storage (once per pass, in
    /// debug builds) and not at each entry, as swift-nio's `NIOLoopBound` does. It shares only `state` (behind its lock) with `append` callers.
    struct Writer {
        struct Segment {
            let id: UInt64
            var size: Int
            var unacknowledged: Int
            /// The newest record's queue time (``AgeClock``), in nanoseconds.
            var newest: Int64
            /// Opening or reading it failed: its records are unknown, and reading
            /// stops before it until it can be read.
            var isUnread = false
            /// Records this run wrote and synced here (counted in ``Metrics/persisted``):
            /// a segment holds either these or records found at open, so a cap or a
            /// purge that deletes it deletes that many accepted records at most.
            var accepted = 0
            /// Where its records start: after the header of a format-1 segment, 0 in a
            /// format-0 one.
            var start = 0
        }

        struct Cursor: Comparable {
            var segment: UInt64
            var offset: Int
            static func < (lhs: Cursor, rhs: Cursor) -> Bool {
                (lhs.segment, lhs.offset) < (rhs.segment, rhs.offset)
            }
        }

        /// What the writer knows of the storage. Whether it holds the lock is `lock`'s.
        enum Storage {
            /// Opened, reacquired or changed by another process: the next operation
            /// recovers first.
            case needsRecovery
            /// Recovered; in use.
            case ready
            /// The directory could not be listed: nothing is written (segment
            /// numbers could collide); every operation retries the listing.
            case unlisted
        }

        /// How often, at most, the age stamps are saved while writing.
        static let stampsInterval: Int64 = 5_000_000_000

        /// The storage; replaced only by `reacquire()` when ``reclaim`` gives another.
        private(set) var store: any SegmentStore
        let configuration: Configuration
        let state: LockedState<BufferState>
        private(set) var location: String
        /// A store of its own when the released one was taken meanwhile (shared folders).
        let reclaim: (@Sendable () throws -> any SegmentStore)?
        /// When the lock is held, and what taking it back means.
        var lock: QueueLockStateMachine
        /// Taking the lock before the operation under way failed (or gave up): its
        /// disk passes are skipped (``holdLock()``).
        var lockUnavailableForOperation = false
        /// Counts moves to another store; records read from an earlier one are never
        /// acknowledged in the current one.
        private(set) var generation: UInt64 = 0
        private let errorHandler: (@Sendable (DurableStorageError) -> Void)?
        var storage = Storage.needsRecovery
        var segments: [Segment] = []
        var active: UInt64?
        var nextID: UInt64 = 1
        var cursor = Cursor(segment: 0, offset: 0)
        var storedBytes = 0
        /// `fsync`s of segments, state files and the directory, for ``Metrics/syncs``.
        var syncs = 0
        var spare: [UInt8] = []
        var clock: AgeClock
        var stampsSavedAt: Int64 = .min
        /// A purge asked for while the storage could not be used; done at recovery.
        var purgePending = false
        /// The last record a purge's emptied buffer held (``purgeBuffer()``): its
        /// waiters are resolved once the stored records are gone too.
        var purgedThrough: UInt64 = 0
        /// Unread segments already reported, so a retry that fails again stays quiet.
        var reportedUnreadable: Set<UInt64> = []
        /// A folder of a later format was reported (once per queue).
        var reportedNewerFormat = false
        /// A segment of a later format was found only when read (it was unreadable at
        /// the check): the storage recovers again before it is used.
        var laterSegmentFound = false
        /// The most bytes one read held, for the tests: reading is a chunk at a time.
        var largestRead = 0
        var maxPayloadSize: Int { max(configuration.maxRecordSize, 1 << 20) }

        init(
            store: any SegmentStore, configuration: Configuration, clock: QueueClock, location: String,
            state: LockedState<BufferState>, reclaim: (@Sendable () throws -> any SegmentStore)? = nil,
            lockPatience: Duration = .milliseconds(200), errorHandler: (@Sendable (DurableStorageError) -> Void)?
        ) {
            self.store = store
            self.reclaim = reclaim
            lock = QueueLockStateMachine(policy: configuration.lockPolicy, patience: lockPatience)
            self.configuration = configuration
            self.clock = AgeClock(source: clock)
            self.location = location
            self.state = state
            self.errorHandler = errorHandler
        }

        func reportError(_ error: any Error) {
            if let error = error as? DurableStorageError { errorHandler?(error) }
        }

        /// Takes the lock if the policy gave it up, then recovers if needed; `false`
        /// when the storage cannot be used now.
        mutating func ensureReady() -> Bool {
            guard holdLock() else { return false }
            switch storage {
            case .ready:
                // A purge that could not take the lock is done before anything reads or
                // writes: with the folder unchanged, no recovery runs to do it.
                if purgePending { purgeStorage() }
                return true
            case .needsRecovery, .unlisted:
                recover()
                return storage == .ready
            }
        }

        // MARK: Recovery

        /// Lists and scans every segment; keeps intact unacknowledged records and
        /// unreadable segments, deletes what is fully acknowledged, counts what it skipped.
        mutating func recover() {
            // Read anew after a reacquisition: segments this run wrote stay its own.
            let accepted = Dictionary(segments.map { ($0.id, $0.accepted) }, uniquingKeysWith: +)
            segments.removeAll()
            storedBytes = 0
            active = nil
            reportedUnreadable.removeAll()
            laterSegmentFound = false
            let ids: [UInt64]
            do { ids = try store.segmentIDs() } catch {
                // Without the listing the next segment number is a guess: write nothing.
                if storage != .unlisted { reportError(error) }
                storage = .unlisted
                return
            }
            let storedCursor = store.loadState(.cursor)
            let storedStamps = store.loadState(.stamps)
            if let newer = newerFormat(ids: ids, cursor: storedCursor, stamps: storedStamps) {
                // The folder is a later version's: not one byte of it is touched.
                guard moveToFormatFolder(newer) else { return }
                // Records read before belong to the folder left: never acknowledged in this one.
                generation &+= 1
                recover()
                return
            }
            store.removeTemporaryFiles()
            cursor = storedCursor.flatMap(Self.decode) ?? Cursor(segment: 0, offset: 0)
            let stamps = storedStamps.flatMap(Stamps.init(decoding:))
            clock.resume(from: stamps)
            let now = clock.now()
            var found = Found()
            for id in ids {
                nextID = max(nextID, id &+ 1)
                if id < cursor.segment {
                    try? store.remove(id)
                    continue
                }
                var segment = Segment(
                    id: id, size: store.size(of: id) ?? 0, unacknowledged: 0,
                    newest: min(stamps?.segments[id] ?? now, now), isUnread: true)
                scan(&segment, into: &found)
                segment.accepted = accepted[id] ?? 0
                if !segment.isUnread && segment.unacknowledged == 0 {
                    try? store.remove(id)
                    continue
                }
                segments.append(segment)
                storedBytes += segment.size
            }
            nextID = max(nextID, cursor.segment &+ 1)
            guard !laterSegmentFound else {
                laterSegmentFound = false
                storage = .needsRecovery
                return
            }
            storage = .ready
            state.withLock { state in
                state.metrics.recovered = found.records
                state.metrics.backlog = found.records
                state.metrics.skippedBytes = found.skippedBytes
                state.metrics.skippedRegions = found.skippedRegions
                state.metrics.storedBytes = storedBytes
                state.metrics.unreadableSegments = segments.count { $0.isUnread }
            }
            if purgePending { purgeStorage() }
            dropExpired(now: now)
            dropForCapacity(adding: 0)
            saveStamps(now: now)
        }

        /// What scanning segments found.
        struct Found {
            var records = 0
            var skippedBytes = 0
            var skippedRegions = 0
        }

        /// Reads an unread segment whole and counts its records; on failure it stays
        /// unread, reported once.
        mutating func scan(_ segment: inout Segment, into found: inout Found) {
            let bytes: [UInt8]
            do { bytes = try store.contents(of: segment.id) } catch {
                if reportedUnreadable.insert(segment.id).inserted { reportError(error) }
                return
            }
            let version = QueueFormat.SegmentHeader.version(of: bytes)
            guard version <= QueueFormat.current else {
                // Unreadable when the queue opened (a device not yet unlocked), so not
                // checked then: the folder is a later format's. It stays unread, and the
                // next operation recovers again, which leaves the folder to that format.
                laterSegmentFound = true
                storage = .needsRecovery
                return
            }
            let start = version == 0 ? 0 : QueueFormat.SegmentHeader.size
            let scan = bytes.withUnsafeBytes {
                RecordFraming.scan(UnsafeRawBufferPointer(rebasing: $0[start...]), maxPayload: maxPayloadSize)
            }
            found.skippedBytes += scan.skippedBytes
            found.skippedRegions += scan.skippedRegions
            let unacknowledged = segment.id == cursor.segment
                ? scan.records.count { start + $0.end > cursor.offset } : scan.records.count
            segment.start = start
            found.records += unacknowledged
            segment.size = bytes.count
            segment.unacknowledged = unacknowledged
            segment.isUnread = false
        }

        /// Tries again to read the unread segment at `index` (after a later unlock of
        /// the device, say). `false` when it is still unreadable.
        mutating func retryUnread(at index: Int) -> Bool {
            var segment = segments[index]
            var found = Found()
            scan(&segment, into: &found)
            guard !segment.isUnread else { return false }
            reportedUnreadable.remove(segment.id)
            storedBytes += segment.size - segments[index].size
            if segment.unacknowledged == 0 {
                segments.remove(at: index)
                storedBytes -= segment.size
                try? store.remove(segment.id)
            } else {
                segments[index] = segment
            }
            let stored = storedBytes
            state.withLock { state in
                state.metrics.recovered += found.records
                state.metrics.backlog += found.records
                state.metrics.skippedBytes += found.skippedBytes
                state.metrics.skippedRegions += found.skippedRegions
                state.metrics.storedBytes = stored
                state.metrics.unreadableSegments -= 1
            }
            return true
        }

        // MARK: Stamps, release, close

        /// Saves each segment's newest stamp and the clocks (not durably: a lost
        /// file only makes segments younger at the next open).
        mutating func saveStamps(now: Int64) {
            let stamps = Stamps(
                queueTime: now, wallTime: clock.source.wallNanoseconds(),
                segments: Dictionary(segments.map { ($0.id, $0.newest) }, uniquingKeysWith: max))
            do { try store.storeState(stamps.encoded(), as: .stamps) } catch { reportError(error) }
            stampsSavedAt = now
        }

        mutating func saveStampsIfDue(now: Int64) {
            if now &- stampsSavedAt >= Self.stampsInterval { saveStamps(now: now) }
        }

        /// Writes what is buffered, saves the stamps, closes every descriptor and
        /// gives the lock up. Later appends stay buffered.
        mutating func release() {
            guard lock.isActive else { return }
            if ensureReady() {
                writeBuffered()
                saveStamps(now: clock.now())
            }
            store.releaseLock()
            active = nil
            lock.suspend()
        }

        /// Takes the lock again; the next operation recovers from what is on disk,
        /// which another process may have changed meanwhile. When another queue took
        /// the store meanwhile and the queue can `reclaim`, it moves to a store of its
        /// own: what it buffered is written there.
        mutating func reacquire() throws {
            guard lock.shouldResume() else { return }
            do {
                try store.acquireLock()
            } catch let error as DurableStorageError where error.isLockConflict {
                guard reclaim != nil else { throw error }
                try moveToReclaimedStore()
            }
            _ = lock.lockTaken(diskMatchesMemory: false)
            storage = .needsRecovery
        }

        /// Moves to a store of its own, locked, when the current one is taken.
        mutating func moveToReclaimedStore() throws {
            guard let reclaim else { return }
            let claimed = try reclaim()
            store.releaseLock()
            store = claimed
            if let files = claimed as? FileSegmentStore { location = files.directory.path }
            generation &+= 1
            // Segment numbers and the cursor belong to the old store.
            nextID = 1
            storage = .needsRecovery
        }

        /// The queue is being deallocated: write, save, unlock.
        mutating func close() {
            release()
            lock.close()
        }
    }
}
