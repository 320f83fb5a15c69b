import Foundation

extension DurableQueue {
    /// The queue's disk side. Every method runs on the queue's serial `ioQueue`,
    /// which is what makes `@unchecked Sendable` sound: its state has one thread at a time.
    final class Writer: @unchecked Sendable {
        struct Segment {
            let id: UInt64
            var size: Int
            var unacknowledged: Int
            var newest: Date
        }

        struct Cursor: Comparable {
            var segment: UInt64
            var offset: Int
            static func < (lhs: Cursor, rhs: Cursor) -> Bool {
                (lhs.segment, lhs.offset) < (rhs.segment, rhs.offset)
            }
        }

        let store: any SegmentStore
        private let configuration: Configuration
        let state: LockedState<BufferState>
        private let errorHandler: (@Sendable (DurableStorageError) -> Void)?
        var segments: [Segment] = []
        private var active: UInt64?
        private var nextID: UInt64 = 1
        var cursor = Cursor(segment: 0, offset: 0)
        private var storedBytes = 0
        private var spare: [UInt8] = []
        /// The most bytes one read held, for the tests: reading is a chunk at a time.
        var largestRead = 0
        private var maxPayload: Int { max(configuration.maxRecordSize, 1 << 20) }

        init(
            store: any SegmentStore, configuration: Configuration, state: LockedState<BufferState>,
            errorHandler: (@Sendable (DurableStorageError) -> Void)?
        ) {
            self.store = store
            self.configuration = configuration
            self.state = state
            self.errorHandler = errorHandler
        }

        func reportError(_ error: any Error) {
            if let error = error as? DurableStorageError { errorHandler?(error) }
        }

        var maxPayloadSize: Int { maxPayload }
        var activeSegment: UInt64? { active }
        var storedByteCount: Int { storedBytes }

        func dropExpiredForReading() { dropExpired(now: Date()) }

        func removeFirstSegment() {
            let segment = segments.removeFirst()
            if segment.id == active { active = nil }
            try? store.remove(segment.id)
            storedBytes -= segment.size
        }

        // MARK: Recovery

        /// Scans every segment once; keeps intact unacknowledged records, deletes
        /// what is fully acknowledged, counts what it skipped.
        func recover() {
            do { try store.prepare() } catch { reportError(error) }
            if let bytes = store.loadCursor(), let stored = Self.decode(bytes) { cursor = stored }
            let ids = (try? store.segmentIDs()) ?? []
            var recovered = 0
            var skippedBytes = 0
            var skippedRegions = 0
            for id in ids {
                nextID = max(nextID, id + 1)
                if id < cursor.segment {
                    try? store.remove(id)
                    continue
                }
                let bytes: [UInt8]
                do { bytes = try store.contents(of: id) } catch {
                    reportError(error)
                    continue
                }
                let scan = bytes.withUnsafeBytes { RecordFraming.scan($0, maxPayload: maxPayload) }
                skippedBytes += scan.skippedBytes
                skippedRegions += scan.skippedRegions
                let unacknowledged = id == cursor.segment
                    ? scan.records.count { $0.end > cursor.offset } : scan.records.count
                if unacknowledged == 0 {
                    try? store.remove(id)
                    continue
                }
                segments.append(Segment(
                    id: id, size: bytes.count, unacknowledged: unacknowledged,
                    newest: store.modificationDate(of: id) ?? Date()))
                storedBytes += bytes.count
                recovered += unacknowledged
            }
            nextID = max(nextID, cursor.segment + 1)
            state.withLock { state in
                state.metrics.recovered = recovered
                state.metrics.backlog += recovered
                state.metrics.skippedBytes = skippedBytes
                state.metrics.skippedRegions = skippedRegions
                state.metrics.storedBytes = storedBytes
            }
            dropExpired(now: Date())
            dropForCapacity(adding: 0)
        }

        // MARK: Writing

        /// Appends what is buffered to the active segment and syncs it.
        func writeBuffered() {
            var bytes = spare
            let (count, sequence) = state.withLock { state -> (Int, UInt64) in
                swap(&bytes, &state.buffer)
                let count = state.bufferedCount
                state.bufferedCount = 0
                state.isScheduled = false
                state.isUrgent = false
                return (count, state.appendedSequence)
            }
            guard count > 0 else {
                spare = bytes
                return
            }
            let now = Date()
            dropExpired(now: now)
            // Segment-sized pieces, each written and synced, so a segment stays near
            // `segmentSize` and can be deleted once acknowledged.
            var persisted = 0
            var start = 0
            while start < bytes.count {
                let (end, records) = Self.pieceEnd(bytes, from: start, limit: pieceLimit())
                do {
                    try write(bytes[start..<end], records: records, now: now)
                } catch {
                    reportError(error)
                    break
                }
                persisted += records
                start = end
            }
            bytes.removeAll(keepingCapacity: true)
            if bytes.capacity <= 4 << 20 { spare = bytes }
            finish(persisted: persisted, failed: count - persisted, sequence: sequence)
        }

        /// Room left in the active segment, at least one record's worth.
        private func pieceLimit() -> Int {
            guard let id = active, let segment = segments.last(where: { $0.id == id }) else { return configuration.segmentSize }
            return max(configuration.segmentSize - segment.size, 1)
        }

        /// The end of the records from `start` that fit in `limit` bytes (at least
        /// one), and their number. The buffer holds only records this process framed.
        static func pieceEnd(_ bytes: [UInt8], from start: Int, limit: Int) -> (end: Int, records: Int) {
            var end = start
            var records = 0
            bytes.withUnsafeBytes { raw in
                while end < raw.count {
                    let length = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: end + 2, as: UInt32.self)))
                    let next = end + RecordFraming.headerSize + length
                    if records > 0 && next - start > limit { break }
                    end = next
                    records += 1
                }
            }
            return (end, records)
        }

        private func write(_ bytes: ArraySlice<UInt8>, records: Int, now: Date) throws {
            if let id = active, let index = segments.lastIndex(where: { $0.id == id }),
                segments[index].size >= configuration.segmentSize
            {
                active = nil
            }
            dropForCapacity(adding: bytes.count)
            if active == nil {
                let id = nextID
                nextID += 1
                try store.create(id)
                segments.append(Segment(id: id, size: 0, unacknowledged: 0, newest: now))
                active = id
            }
            guard let id = active, let index = segments.lastIndex(where: { $0.id == id }) else { return }
            let offset = segments[index].size
            do {
                try bytes.withUnsafeBytes { try store.write($0, to: id, at: offset) }
                try store.sync(id)
            } catch {
                // Cut the torn tail off; if even that fails, never write behind it again.
                do { try store.truncate(id, to: offset) } catch { active = nil }
                throw error
            }
            segments[index].size += bytes.count
            segments[index].newest = now
            segments[index].unacknowledged += records
            storedBytes += bytes.count
        }

        private func finish(persisted: Int, failed: Int, sequence: UInt64) {
            let (ready, handler, backlog) = state.withLock { state in
                state.metrics.dropped[.writeFailed, default: 0] += failed
                if state.metrics.dropped[.writeFailed] == 0 { state.metrics.dropped[.writeFailed] = nil }
                state.metrics.persisted += persisted
                state.metrics.backlog += persisted
                state.metrics.storedBytes = storedBytes
                state.resolvedSequence = sequence
                var ready: [CheckedContinuation<Void, Never>] = []
                state.waiters.removeAll { waiter in
                    guard waiter.0 <= sequence else { return false }
                    ready.append(waiter.1)
                    return true
                }
                return (ready, state.persistHandler, state.metrics.backlog)
            }
            for continuation in ready { continuation.resume() }
            handler?(backlog)
        }

        // MARK: Caps

        private func dropExpired(now: Date) {
            let limit = now.addingTimeInterval(-configuration.maxAge.timeInterval)
            while let oldest = segments.first, oldest.newest < limit {
                drop(at: 0, reason: .age)
            }
        }

        private func dropForCapacity(adding count: Int) {
            while storedBytes + count > configuration.maxBytes, !segments.isEmpty {
                drop(at: 0, reason: .capacity)
            }
        }

        private func drop(at index: Int, reason: DropReason) {
            let segment = segments.remove(at: index)
            if segment.id == active { active = nil }
            try? store.remove(segment.id)
            storedBytes -= segment.size
            state.withLock { state in
                state.metrics.dropped[reason, default: 0] += segment.unacknowledged
                state.metrics.backlog -= segment.unacknowledged
                state.metrics.storedBytes = storedBytes
            }
        }

        func purge() {
            let (count, sequence) = state.withLock { state -> (Int, UInt64) in
                let count = state.bufferedCount
                state.buffer.removeAll(keepingCapacity: true)
                state.bufferedCount = 0
                return (count, state.appendedSequence)
            }
            let stored = segments.reduce(0) { $0 + $1.unacknowledged }
            for segment in segments { try? store.remove(segment.id) }
            segments.removeAll()
            storedBytes = 0
            active = nil
            cursor = Cursor(segment: nextID, offset: 0)
            try? store.storeCursor(Self.encode(cursor))
            state.withLock { state in
                state.metrics.dropped[.purged, default: 0] += count + stored
                state.metrics.backlog = 0
                state.metrics.storedBytes = 0
            }
            finish(persisted: 0, failed: 0, sequence: sequence)
        }
    }
}
