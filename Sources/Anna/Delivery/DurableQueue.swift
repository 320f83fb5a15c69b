import Dispatch
import Foundation

/// An append-only, crash-safe queue of byte records: what ``HTTPBatchProvider``
/// keeps events in until a collector accepted them.
///
/// ``append(_:)-(UnsafeRawBufferPointer)`` frames the record (length and CRC-32)
/// and buffers it under a short lock; it never touches the disk. A writer on the
/// queue's own dispatch queue appends what is buffered to the current segment file
/// and calls `fsync`, at the latest ``Configuration/syncInterval`` after the first
/// buffered record, so one `fsync` covers every record of the interval. A record
/// counts as accepted (``Metrics/persisted``) once synced.
///
/// Opening the queue recovers on the writer's queue: it scans every segment,
/// keeps every intact record, skips torn and damaged bytes and counts them
/// (``Metrics/skippedBytes``). Records leave only when acknowledged, through a
/// cursor stored atomically beside the segments; fully acknowledged segments
/// are deleted. Reading is lazy, a chunk at a time, so a backlog stays on disk.
/// Caps on bytes and age delete the oldest segment first and count every record
/// they delete.
public final class DurableQueue: Sendable {
    let configuration: Configuration
    private let state: LockedState<BufferState>
    private let writer: Writer
    private let ioQueue = DispatchQueue(label: "anna.durable-queue", qos: .utility)

    /// Opens a queue. Returns at once: recovery runs on the queue's writer.
    /// - Parameters:
    ///   - storage: A directory of segment files, or memory.
    ///   - configuration: Sync interval, caps and sizes.
    ///   - errorHandler: Receives storage failures (a full disk, I/O errors), on the writer's queue.
    public convenience init(
        storage: DeliveryStorage,
        configuration: Configuration = Configuration(),
        errorHandler: (@Sendable (DurableStorageError) -> Void)? = nil
    ) {
        var configuration = configuration
        let store: any SegmentStore
        switch storage {
        case .directory(let url):
            store = FileSegmentStore(directory: url)
        case .memory(let limit):
            store = MemorySegmentStore()
            configuration.maxBytes = limit
            configuration.maxAge = .seconds(Int64.max / 4)
        }
        self.init(store: store, configuration: configuration, errorHandler: errorHandler)
    }

    init(store: any SegmentStore, configuration: Configuration, errorHandler: (@Sendable (DurableStorageError) -> Void)?) {
        var configuration = configuration
        configuration.segmentSize = max(4096, min(configuration.segmentSize, configuration.maxBytes / 4))
        self.configuration = configuration
        let state = LockedState(BufferState())
        self.state = state
        self.writer = Writer(store: store, configuration: configuration, state: state, errorHandler: errorHandler)
        ioQueue.async { [writer] in writer.recover() }
    }

    // MARK: Appending

    /// Appends a record. Returns at once; the record is buffered and written within
    /// ``Configuration/syncInterval``.
    /// - Parameter payload: The record's bytes.
    /// - Returns: `false` when the record is longer than ``Configuration/maxRecordSize``
    ///   (it is counted as ``DropReason/tooLarge``).
    @discardableResult
    public func append(_ payload: UnsafeRawBufferPointer) -> Bool {
        guard payload.count <= configuration.maxRecordSize else {
            state.withLock { $0.metrics.dropped[.tooLarge, default: 0] += 1 }
            return false
        }
        let crc = CRC32.checksum(payload)
        let (delayed, urgent) = state.withLock { state -> (Bool, Bool) in
            RecordFraming.append(payload, crc: crc, to: &state.buffer)
            return Self.noteAppended(1, to: &state, threshold: configuration.writeThreshold)
        }
        scheduleWrite(delayed: delayed, urgent: urgent)
        return true
    }

    /// Counts appended records; returns whether to schedule the writer, and whether now.
    private static func noteAppended(_ count: Int, to state: inout BufferState, threshold: Int) -> (Bool, Bool) {
        state.bufferedCount += count
        state.appendedSequence += UInt64(count)
        state.metrics.appended += count
        let delayed = !state.isScheduled
        state.isScheduled = true
        let urgent = state.buffer.count >= threshold && !state.isUrgent
        if urgent { state.isUrgent = true }
        return (delayed, urgent)
    }

    private func scheduleWrite(delayed: Bool, urgent: Bool) {
        if urgent {
            ioQueue.async { [writer] in writer.writeBuffered() }
        } else if delayed {
            ioQueue.asyncAfter(deadline: .now() + configuration.syncInterval.dispatchInterval) { [writer] in
                writer.writeBuffered()
            }
        }
    }

    /// Appends records already framed with ``RecordFraming`` (checksums computed by the
    /// caller, outside the lock), all under one lock. Leaves `framed` empty.
    func appendFramed(_ framed: inout [UInt8], count: Int) {
        guard count > 0 else { return }
        let (delayed, urgent) = state.withLock { state -> (Bool, Bool) in
            if state.buffer.isEmpty {
                swap(&state.buffer, &framed)
            } else {
                state.buffer.append(contentsOf: framed)
            }
            return Self.noteAppended(count, to: &state, threshold: configuration.writeThreshold)
        }
        framed.removeAll(keepingCapacity: true)
        scheduleWrite(delayed: delayed, urgent: urgent)
    }

    /// Appends a record.
    /// - Parameter payload: The record's bytes.
    /// - Returns: `false` when the record is too long (counted as ``DropReason/tooLarge``).
    @discardableResult
    public func append(_ payload: [UInt8]) -> Bool {
        payload.withUnsafeBytes { append($0) }
    }

    /// Waits until every record appended before the call is written and synced,
    /// or has failed to be (``DropReason/writeFailed``). Starts the writer at once.
    public func waitUntilPersisted() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state -> Bool in
                guard state.resolvedSequence < state.appendedSequence else { return true }
                state.waiters.append((state.appendedSequence, continuation))
                return false
            }
            if done { continuation.resume() } else { ioQueue.async { [writer] in writer.writeBuffered() } }
        }
    }

    // MARK: Reading and acknowledging

    /// Reads the oldest unacknowledged records, up to the limits; persisted ones only.
    /// - Parameters:
    ///   - maxRecords: The most records to return.
    ///   - maxBytes: The most payload bytes to return; at least one record is returned.
    /// - Returns: The records in append order, empty when none are persisted and unacknowledged.
    public func read(maxRecords: Int, maxBytes: Int) async -> [Record] {
        await withCheckedContinuation { continuation in
            ioQueue.async { [writer] in continuation.resume(returning: writer.read(maxRecords: maxRecords, maxBytes: maxBytes)) }
        }
    }

    /// Removes records for good: the server accepted them (or rejected them for good).
    /// - Parameter records: Records from ``read(maxRecords:maxBytes:)``, the oldest first,
    ///   with none left out before them.
    public func acknowledge(_ records: [Record]) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            ioQueue.async { [writer] in
                writer.acknowledge(records[...])
                continuation.resume()
            }
        }
    }

    /// Deletes every record, buffered or stored, and counts them (``DropReason/purged``).
    public func purge() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            ioQueue.async { [writer] in
                writer.purge()
                continuation.resume()
            }
        }
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
        ioQueue.sync { writer.read(maxRecords: maxRecords, maxBytes: maxBytes) }
    }

    func acknowledgeNow(_ records: ArraySlice<Record>) {
        ioQueue.sync { writer.acknowledge(records) }
    }

    /// Called on the writer's queue after each write with the backlog.
    func setPersistHandler(_ handler: @escaping @Sendable (Int) -> Void) {
        state.withLock { $0.persistHandler = handler }
    }

    /// The most bytes a single read held in memory.
    var largestRead: Int {
        ioQueue.sync { writer.largestRead }
    }

    /// Writes what is buffered now and waits for it, from a thread that may block.
    func syncNow() {
        ioQueue.sync { writer.writeBuffered() }
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
    var waiters: [(UInt64, CheckedContinuation<Void, Never>)] = []
    var metrics = DurableQueue.Metrics()
    var persistHandler: (@Sendable (Int) -> Void)?
}

extension Duration {
    var dispatchInterval: DispatchTimeInterval {
        let (seconds, attoseconds) = components
        let nanoseconds = Double(seconds) * 1e9 + Double(attoseconds) / 1e9
        return .nanoseconds(Int(min(nanoseconds, Double(Int.max / 2))))
    }

    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
