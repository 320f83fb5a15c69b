import Dispatch
import Foundation

/// An append-only, crash-safe queue of byte records: what ``DurableProvider``
/// keeps events in until a collector accepted them.
///
/// ``append(_:)`` frames the record (length and CRC-32)
/// and buffers it under a short lock; it never touches the disk and never blocks.
/// At most ``Configuration/maxBufferedBytes`` wait in memory; beyond that `append`
/// refuses records and counts them (``DropReason/bufferFull``), and callers that
/// prefer to wait call ``waitForRoom()`` first. A writer on the queue's own dispatch
/// queue appends what is buffered to the current segment file and calls `fsync`, at
/// the latest ``Configuration/syncInterval`` after the first buffered record, so one
/// `fsync` covers every record of the interval. A record counts as accepted
/// (``Metrics/persisted``) once synced, with the segment's name.
///
/// Opening a directory takes an exclusive lock on it, on the caller's thread (one
/// `open` and `flock`): a second queue on the same directory, in this process or
/// another, fails to open. ``releaseLock()`` and ``reacquireLock()`` give it up and
/// take it back, for an iOS app that is suspended. Under
/// ``DeliveryStorage/LockPolicy/aroundIO`` (an app extension) the writer holds the lock
/// only for each disk operation and, taking it back, rereads the directory if another
/// process changed it meanwhile (``QueueLockStateMachine``). Recovery runs on the writer: it
/// scans every segment, keeps every intact record, skips torn and damaged bytes and
/// counts them (``Metrics/skippedBytes``), and keeps segments it cannot read yet
/// (``Metrics/unreadableSegments``), trying them again later. Records leave only
/// when acknowledged, through a cursor stored atomically and durably beside the
/// segments; fully acknowledged segments are deleted. Reading is lazy, a chunk at a
/// time, so a backlog stays on disk. Caps on bytes and age (in queue time, which a
/// wall-clock jump cannot fake) delete the oldest segment first and count every
/// record they delete.
///
/// Threads: `state` (the buffer, counters and waiters) is behind its lock; the
/// writer's state belongs to the serial writer queue, where operations run in the
/// order they enter `ioQueue` (``Driver``).
@_spi(DurableQueue) public final class DurableQueue: Sendable {
    /// How the queue writes, caps and reads its segments.
    public typealias Configuration = DeliveryStorage.Configuration

    let configuration: Configuration
    private let state: LockedState<BufferState>
    /// The disk side, owned by the writer queue (checked in its storage in debug builds).
    let writer: QueueBound<Writer>
    /// Where the writer runs.
    private let writerQueue: DispatchQueue
    /// Where operations enter, in order; its target is `writerQueue` (``Driver``).
    private let ioQueue: DispatchQueue
    /// Runs operations and waits out lock conflicts on the writer queue's timer.
    private let driver: Driver
    /// Set on `writerQueue`, so that `deinit` knows whether it runs there.
    private let onWriterQueue = DispatchSpecificKey<Void>()

    /// Opens a queue: creates the directory if needed and locks it, on the caller's
    /// thread; recovery then runs on the queue's writer.
    /// - Parameters:
    ///   - storage: A directory of segment files, or memory.
    ///   - configuration: Sync interval, caps and sizes.
    ///   - errorHandler: Receives storage failures (a full disk, I/O errors, an
    ///     unreadable segment, a full buffer), on the writer's queue.
    /// - Throws: ``DurableStorageError``: ``DurableStorageError/isLockConflict`` when
    ///   another queue, in this process or another, uses the directory; give each
    ///   provider and process its own directory. Operation "creating" when the
    ///   directory cannot be created.
    public convenience init(
        storage: DeliveryStorage,
        configuration: Configuration = Configuration(),
        errorHandler: (@Sendable (DurableStorageError) -> Void)? = nil
    ) throws {
        var configuration = configuration
        let store: any SegmentStore
        let location: String
        var reclaim: (@Sendable () throws -> any SegmentStore)?
        switch storage {
        case .directory(let url):
            store = FileSegmentStore(directory: url, syncMode: configuration.syncMode)
            location = url.path
        case .shared(let folder):
            let shared = SharedDeliveryFolder(folder: folder, syncMode: configuration.syncMode)
            let claimed = try shared.claim()
            store = claimed
            location = claimed.directory.path
            // After a suspension another process may have adopted the queue: claim another.
            reclaim = { try shared.claim() }
        case .memory(let limit):
            store = MemorySegmentStore()
            location = "memory"
            configuration.maxBytes = limit
            configuration.maxAge = .seconds(Int64.max / 4)
        }
        try self.init(
            store: store, configuration: configuration, location: location, reclaim: reclaim, errorHandler: errorHandler)
    }

    /// - Parameters:
    ///   - reclaim: Where to go when ``reacquireLock()`` finds the store taken by
    ///     another queue: a store of its own, locked.
    ///   - lockPatience: How long a conflict on the lock is waited out
    ///     (``QueueLockStateMachine/patience``); tests lengthen it.
    init(
        store: any SegmentStore, configuration: Configuration, clock: QueueClock = .system,
        location: String = "memory", reclaim: (@Sendable () throws -> any SegmentStore)? = nil,
        lockPatience: Duration = .milliseconds(200), errorHandler: (@Sendable (DurableStorageError) -> Void)?
    ) throws {
        var configuration = configuration
        configuration.segmentSize = max(4096, min(configuration.segmentSize, configuration.maxBytes / 4))
        configuration.maxBufferedBytes = max(
            configuration.maxBufferedBytes, configuration.maxRecordSize + RecordFraming.headerSize)
        self.configuration = configuration
        try store.acquireLock()
        // The first write is due a sync interval after the queue opens, like every later one.
        let state = LockedState(BufferState(lastWrite: DispatchTime.now().uptimeNanoseconds))
        self.state = state
        let writerQueue = DispatchQueue(label: "anna.durable-queue", qos: .utility)
        self.writerQueue = writerQueue
        let writer = QueueBound(
            Writer(
                store: store, configuration: configuration, clock: clock, location: location, state: state,
                reclaim: reclaim, lockPatience: lockPatience, errorHandler: errorHandler),
            on: writerQueue)
        self.writer = writer
        ioQueue = DispatchQueue(label: "anna.durable-queue.operations", target: writerQueue)
        driver = Driver(writer: writer, operations: ioQueue, writerQueue: writerQueue)
        writerQueue.setSpecific(key: onWriterQueue, value: ())
        driver.submit { _ = $0.ensureReady() }
    }

    /// Writes what is buffered, saves the age stamps and gives the lock up, before
    /// returning: a queue opened next on the directory finds it free.
    /// On the writer queue itself (the last reference dropped there) it cannot wait:
    /// a lock conflict is then waited out on the queue's timer after it returns.
    deinit {
        if DispatchQueue.getSpecific(key: onWriterQueue) != nil {
            driver.run({ $0.close() }, done: { _ in })
        } else {
            driver.wait { $0.close() }
        }
    }

    // MARK: Appending

    /// Appends a record. Returns at once; the record is buffered and written within
    /// ``Configuration/syncInterval``.
    /// - Parameter payload: The record's bytes.
    /// - Returns: `false` when the record is longer than ``Configuration/maxRecordSize``
    ///   (counted as ``DropReason/tooLarge``) or the buffer is full (counted as
    ///   ``DropReason/bufferFull`` and reported to the error handler).
    @discardableResult
    package func append(_ payload: UnsafeRawBufferPointer) -> Bool {
        guard payload.count <= configuration.maxRecordSize else {
            state.withLock { $0.metrics.dropped[.tooLarge, default: 0] += 1 }
            return false
        }
        let crc = CRC32.checksum(payload)
        let limit = configuration.maxBufferedBytes
        let outcome = state.withLock { state -> Outcome in
            guard state.buffer.count + RecordFraming.headerSize + payload.count <= limit else {
                return Self.refuse(1, in: &state)
            }
            RecordFraming.append(payload, crc: crc, to: &state.buffer)
            return Self.noteAppended(1, to: &state, threshold: configuration.writeThreshold)
        }
        handle(outcome)
        return outcome.taken > 0
    }

    /// Appends a record.
    /// - Parameter payload: The record's bytes.
    /// - Returns: `false` when the record is too long (``DropReason/tooLarge``) or the
    ///   buffer is full (``DropReason/bufferFull``).
    @discardableResult
    public func append(_ payload: [UInt8]) -> Bool {
        payload.withUnsafeBytes { append($0) }
    }

    /// Appends a batch of records under one lock, without copying when the buffer has
    /// no storage of its own yet. Leaves `batch` empty. The batch is taken whole while fewer than
    /// ``Configuration/maxBufferedBytes`` wait (so the buffer may exceed the bound by
    /// one batch), and refused whole otherwise, counted (``DropReason/bufferFull``) and
    /// reported; ``waitForRoom()`` first makes it taken.
    /// - Returns: The number of records taken: all of them or none.
    @discardableResult
    func append(_ batch: inout Batch) -> Int {
        guard batch.count > 0 else { return 0 }
        let count = batch.count
        let limit = configuration.maxBufferedBytes
        let outcome = state.withLock { state -> Outcome in
            // Taken whole while the buffer is under the bound (which it may then
            // exceed by this batch: callers bound their batches), refused otherwise.
            guard state.buffer.count < limit else { return Self.refuse(count, in: &state) }
            if state.buffer.isEmpty && state.buffer.capacity < batch.bytes.count {
                // Taken without a copy. Once the buffer has its own storage it keeps
                // it: swapping would hand the writer's large buffers to the callers'
                // batches, and a burst would hold one per caller besides the writer's two.
                swap(&state.buffer, &batch.bytes)
            } else {
                // Grown to the bound and one batch at most, not to the next power of two:
                // in a burst the buffer and the writer's previous one are the largest
                // things an event passes through.
                let needed = state.buffer.count + batch.bytes.count
                if needed > state.buffer.capacity {
                    state.buffer.reserveCapacity(max(needed, min(2 * state.buffer.capacity, limit + batch.bytes.count)))
                }
                state.buffer.append(contentsOf: batch.bytes)
            }
            return Self.noteAppended(count, to: &state, threshold: configuration.writeThreshold)
        }
        batch.bytes.removeAll(keepingCapacity: true)
        batch.count = 0
        handle(outcome)
        return outcome.taken
    }

    /// What an append did, for the scheduling after the lock.
    private struct Outcome {
        var taken = 0
        var delayed = false
        /// When the writer last took the buffer (``BufferState/lastWrite``).
        var lastWrite: UInt64 = 0
        var urgent = false
        var reportFull = false
    }

    /// Counts appended records; says whether to schedule the writer, and whether now.
    private static func noteAppended(_ count: Int, to state: inout BufferState, threshold: Int) -> Outcome {
        state.bufferedCount += count
        state.appendedSequence += UInt64(count)
        state.metrics.appended += count
        let delayed = !state.isScheduled
        state.isScheduled = true
        let urgent = state.buffer.count >= threshold && !state.isUrgent
        if urgent { state.isUrgent = true }
        return Outcome(taken: count, delayed: delayed, lastWrite: state.lastWrite, urgent: urgent)
    }

    /// Counts refused records; the first refusal until the writer drains is reported.
    private static func refuse(_ count: Int, in state: inout BufferState) -> Outcome {
        state.metrics.dropped[.bufferFull, default: 0] += count
        let report = !state.isFullReported
        state.isFullReported = true
        return Outcome(reportFull: report)
    }

    private func handle(_ outcome: Outcome) {
        if outcome.reportFull {
            // The error handler runs on the writer's queue, never on the caller's thread.
            // The writer is already due: at the write threshold or the sync interval.
            ioQueue.async { [writer] in
                writer.withValue { $0.reportError(DurableStorageError(operation: "buffering", path: $0.location, code: ENOBUFS)) }
            }
        }
        if outcome.urgent {
            driver.submit { $0.writeBuffered() }
        } else if outcome.delayed {
            // A sync interval after the last write, at once when that has passed: a
            // trickle's event is written as it comes, with no timer to wake a thread
            // for it, and a stream is still written at most once per interval.
            let interval = UInt64(clamping: configuration.syncInterval.saturatingNanoseconds)
            let due = outcome.lastWrite.addingReportingOverflow(interval).overflow ? .max : outcome.lastWrite + interval
            if due <= DispatchTime.now().uptimeNanoseconds {
                driver.submit { $0.writeBuffered() }
            } else {
                driver.submit(after: DispatchTime(uptimeNanoseconds: due)) { $0.writeBuffered() }
            }
        }
    }

    /// Returns once fewer than ``Configuration/maxBufferedBytes`` wait for the writer,
    /// starting the writer at once if needed: for callers that prefer backpressure to
    /// ``DropReason/bufferFull``. While the lock is released it waits for
    /// ``reacquireLock()``.
    public func waitForRoom() async {
        let limit = configuration.maxBufferedBytes
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let room = state.withLock { state -> Bool in
                guard state.buffer.count >= limit else { return true }
                state.roomWaiters.append(continuation)
                return false
            }
            if room { continuation.resume() } else { driver.submit { $0.writeBuffered() } }
        }
    }

    /// Waits until every record appended before the call is written and synced,
    /// or has failed to be (``DropReason/writeFailed``). Starts the writer at once.
    /// While the lock is released it waits for ``reacquireLock()``.
    public func waitUntilPersisted() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state -> Bool in
                guard state.resolvedSequence < state.appendedSequence else { return true }
                state.waiters.append((state.appendedSequence, continuation))
                return false
            }
            if done { continuation.resume() } else { driver.submit { $0.writeBuffered() } }
        }
    }

    // MARK: Reading and acknowledging

    /// Reads the oldest unacknowledged records, up to the limits; persisted ones only.
    /// Stops before a segment that cannot be read yet. Empty while the lock is released.
    /// - Parameters:
    ///   - maxRecords: The most records to return.
    ///   - maxBytes: The most payload bytes to return; at least one record is returned.
    /// - Returns: The records in append order, empty when none are persisted and unacknowledged.
    public func read(maxRecords: Int, maxBytes: Int) async -> [Record] {
        await withCheckedContinuation { continuation in
            driver.submit({ $0.read(maxRecords: maxRecords, maxBytes: maxBytes) }, done: { continuation.resume(returning: $0) })
        }
    }

    /// Removes records for good (the server accepted them, or rejected them for good),
    /// durably: they do not come back after a crash or power loss.
    /// - Parameter records: Records from ``read(maxRecords:maxBytes:)``, the oldest first,
    ///   with none left out before them.
    /// - Returns: How many of them were removed now; records a cap already dropped
    ///   are not counted again. 0 while the lock is released (they are read again later).
    @discardableResult
    public func acknowledge(_ records: [Record]) async -> Int {
        await withCheckedContinuation { continuation in
            driver.submit({ $0.acknowledge(records[...]) }, done: { continuation.resume(returning: $0) })
        }
    }

    /// Deletes every record, buffered or stored, and counts them (``DropReason/purged``).
    /// When it returns, the deletion is durable: the cursor and the directory are
    /// synced, so no purged record comes back after a power loss. While the lock is
    /// released, the stored records are purged when it is reacquired.
    public func purge() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            driver.submit(first: { $0.purgeBuffer() }, { $0.purgeStored() }, done: { continuation.resume() })
        }
    }

    // MARK: Lock

    /// Gives the storage directory up, for an app about to be suspended (iOS kills a
    /// suspended app that holds a file lock in an App Group container): writes and
    /// syncs what is buffered, saves the age stamps, closes every file and unlocks.
    /// Later appends stay buffered in memory, within ``Configuration/maxBufferedBytes``;
    /// reads return nothing until ``reacquireLock()``.
    public func releaseLock() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            driver.submit({ $0.release() }, done: { continuation.resume() })
        }
    }

    /// Takes the storage directory's lock back after ``releaseLock()`` (on the caller's
    /// thread, after the writer's current work), then recovers from the directory, which
    /// another process may have changed meanwhile, and writes what was buffered.
    /// On a shared folder (``DeliveryStorage/shared(_:)``), when another process took
    /// the queue meanwhile, it claims another queue of the folder and writes there.
    /// - Throws: ``DurableStorageError`` (``DurableStorageError/isLockConflict``) when
    ///   another queue took the directory meanwhile; the queue stays released.
    public func reacquireLock() throws {
        try ioQueue.sync { try writer.withValue { try $0.reacquire() } }
        driver.submit { $0.writeBuffered() }
    }

    /// What the queue counted so far.
    public var metrics: Metrics {
        state.withLock { state in
            var metrics = state.metrics
            metrics.bufferedBytes = state.buffer.count
            return metrics
        }
    }

    // MARK: For the uploader, on its own thread

    func readNow(maxRecords: Int, maxBytes: Int) -> [Record] {
        driver.wait { $0.read(maxRecords: maxRecords, maxBytes: maxBytes) }
    }

    @discardableResult
    func acknowledgeNow(_ records: ArraySlice<Record>) -> Int {
        driver.wait { $0.acknowledge(records) }
    }

    /// Called on the writer's queue after each write with the backlog.
    func setPersistHandler(_ handler: @escaping @Sendable (Int) -> Void) {
        state.withLock { $0.persistHandler = handler }
    }

    /// The directory the queue writes to now (it moves when it reclaims a shared
    /// folder's queue); "memory" for memory. Not from the writer queue.
    var location: String {
        ioQueue.sync { writer.withValue { $0.location } }
    }

    /// The most bytes a single read held in memory.
    var largestRead: Int {
        ioQueue.sync { writer.withValue { $0.largestRead } }
    }

    /// ``releaseLock()`` from a thread that may block: the uploader's.
    func releaseLockNow() {
        driver.wait { $0.release() }
    }

    /// Writes what is buffered now and waits for it, from a thread that may block.
    func syncNow() {
        driver.wait { $0.writeBuffered() }
    }
}

/// What `append` and the writer share, behind the lock.
struct BufferState {
    var buffer: [UInt8] = []
    var bufferedCount = 0
    var appendedSequence: UInt64 = 0
    var resolvedSequence: UInt64 = 0
    var isScheduled = false
    var isUrgent = false
    /// When the writer last took the buffer, or the queue opened (`DispatchTime` uptime
    /// nanoseconds): the next write is due a sync interval after it, and at once when
    /// that has passed.
    var lastWrite: UInt64 = 0
    /// A full buffer was reported; quiet until the writer drains it.
    var isFullReported = false
    var waiters: [(UInt64, CheckedContinuation<Void, Never>)] = []
    var roomWaiters: [CheckedContinuation<Void, Never>] = []
    var metrics = DurableQueue.Metrics()
    var persistHandler: (@Sendable (Int) -> Void)?
}
