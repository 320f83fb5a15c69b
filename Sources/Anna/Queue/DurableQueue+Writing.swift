import Dispatch
import Foundation

extension DurableQueue.Writer {
    // MARK: Writing

    /// Appends what is buffered to the active segment and syncs it. While the lock
    /// is released it leaves the buffer alone; on unlisted storage it refuses it.
    mutating func writeBuffered() {
        guard lock.isActive else { return }
        let ready = ensureReady()
        // Moved out, not copied: a copy left in `spare` would make the buffer's storage
        // shared, and the first append after the swap would copy all of it.
        var bytes: [UInt8] = []
        swap(&bytes, &spare)
        let (count, sequence, roomWaiters) = state.withLock { state in
            swap(&bytes, &state.buffer)
            let count = state.bufferedCount
            state.bufferedCount = 0
            state.isScheduled = false
            state.isUrgent = false
            state.lastWrite = DispatchTime.now().uptimeNanoseconds
            state.isFullReported = false
            let waiters = state.roomWaiters
            state.roomWaiters.removeAll()
            return (count, state.appendedSequence, waiters)
        }
        for waiter in roomWaiters { waiter.resume() }
        guard count > 0 else {
            spare = bytes
            return
        }
        var persisted = 0
        if ready {
            let now = clock.now()
            dropExpired(now: now)
            // Segment-sized pieces, each written and synced, so a segment stays near
            // `segmentSize` and can be deleted once acknowledged.
            var start = 0
            while start < bytes.count {
                let (end, records) = RecordFraming.prefix(of: bytes, from: start, limit: pieceLimit(), atLeastOne: true)
                guard end > start else { break }  // only this process frames the buffer; never spin
                do {
                    try write(bytes[start..<end], records: records, now: now)
                } catch {
                    reportError(error)
                    break
                }
                persisted += records
                start = end
            }
            saveStampsIfDue(now: now)
        }
        bytes.removeAll(keepingCapacity: true)
        // Kept for the next round while no larger than the buffer grows under load
        // (the bound and a batch), so a burst does not allocate a buffer per write.
        if bytes.capacity <= min(configuration.maxBufferedBytes, 4 << 20) + (1 << 20) { spare = bytes }
        finish(
            persisted: persisted, failed: count - persisted,
            reason: ready ? .writeFailed : .storageUnavailable, sequence: sequence)
    }

    /// Room left in the active segment, at least one record's worth.
    private func pieceLimit() -> Int {
        guard let id = active, let segment = segments.last(where: { $0.id == id }) else { return configuration.segmentSize }
        return max(configuration.segmentSize - segment.size, 1)
    }

    private mutating func write(_ bytes: ArraySlice<UInt8>, records: Int, now: Int64) throws {
        if let id = active, let index = segments.lastIndex(where: { $0.id == id }),
            segments[index].size >= configuration.segmentSize
        {
            active = nil
        }
        dropForCapacity(adding: bytes.count)
        if active == nil { try createSegment(now: now) }
        guard let id = active, let index = segments.lastIndex(where: { $0.id == id }) else { return }
        let offset = segments[index].size
        do {
            try bytes.withUnsafeBytes { try store.write($0, to: id, at: offset) }
            syncs += 1
            try store.sync(id)
        } catch {
            // Cut the torn tail off; if even that fails, never write behind it again.
            do { try store.truncate(id, to: offset) } catch { active = nil }
            throw error
        }
        segments[index].size += bytes.count
        segments[index].newest = now
        segments[index].unacknowledged += records
        segments[index].accepted += records
        storedBytes += bytes.count
    }

    /// Creates the next segment, in format ``QueueFormat/current``, with a number no file
    /// has (`O_EXCL`: a file the listing missed is skipped, never written over) and
    /// makes its name durable.
    private mutating func createSegment(now: Int64) throws {
        var id = nextID
        var attempt = 0
        while true {
            do {
                try store.create(id)
                break
            } catch let error as DurableStorageError where error.code == EEXIST && attempt < 1000 {
                id &+= 1
                attempt += 1
            }
        }
        nextID = id &+ 1
        // The format header; synced with the segment's first records. A crash that
        // tears it leaves a segment read as format 0, its records still found.
        let header = QueueFormat.SegmentHeader.encoded()
        syncs += 1
        do {
            try header.withUnsafeBytes { try store.write($0, to: id, at: 0) }
            try store.syncDirectory()
        } catch {
            // Records in a file whose name may vanish would not be accepted.
            try? store.remove(id)
            throw error
        }
        storedBytes += header.count
        segments.append(Segment(
            id: id, size: header.count, unacknowledged: 0, newest: now, start: header.count))
        active = id
    }

    private func finish(persisted: Int, failed: Int, reason: DurableQueue.DropReason, sequence: UInt64) {
        let stored = storedBytes
        let (ready, handler, backlog) = state.withLock { state in
            if failed > 0 { state.metrics.dropped[reason, default: 0] += failed }
            state.metrics.persisted += persisted
            state.metrics.backlog += persisted
            state.metrics.storedBytes = stored
            state.metrics.syncs = syncs
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

    mutating func dropExpired(now: Int64) {
        let maxAge = configuration.maxAge.saturatingNanoseconds
        while let oldest = segments.first, now &- oldest.newest > maxAge {
            drop(at: 0, reason: .age)
        }
    }

    mutating func dropForCapacity(adding count: Int) {
        while storedBytes + count > configuration.maxBytes, !segments.isEmpty {
            drop(at: 0, reason: .capacity)
        }
    }

    private mutating func drop(at index: Int, reason: DurableQueue.DropReason) {
        let segment = segments.remove(at: index)
        if segment.id == active { active = nil }
        try? store.remove(segment.id)
        storedBytes -= segment.size
        if segment.isUnread { reportedUnreadable.remove(segment.id) }
        let stored = storedBytes
        state.withLock { state in
            state.metrics.dropped[reason, default: 0] += segment.unacknowledged
            state.metrics.backlog -= segment.unacknowledged
            // What was deleted is no longer persisted.
            state.metrics.persisted -= min(segment.accepted, segment.unacknowledged)
            state.metrics.storedBytes = stored
            if segment.isUnread {
                state.metrics.unreadableSegments -= 1
                state.metrics.droppedUnreadableSegments += 1
            }
        }
    }

    // MARK: Purging

    /// Deletes every record, buffered or stored, and counts them. On storage that
    /// cannot be used now it empties the buffer and purges the disk at the next
    /// recovery, before anything appended later is written.
    mutating func purge() {
        purgeBuffer()
        purgeStored()
    }

    /// The first part of ``purge()``, which needs no lock and runs at the purge's turn
    /// even while the lock is waited for: empties the buffer and counts what it held.
    mutating func purgeBuffer() {
        let (sequence, roomWaiters) = state.withLock { state in
            let count = state.bufferedCount
            state.buffer.removeAll(keepingCapacity: true)
            state.bufferedCount = 0
            state.metrics.dropped[.purged, default: 0] += count
            let waiters = state.roomWaiters
            state.roomWaiters.removeAll()
            return (state.appendedSequence, waiters)
        }
        for waiter in roomWaiters { waiter.resume() }
        purgedThrough = sequence
    }

    /// The rest of ``purge()``, under the lock: deletes what is stored, or leaves it
    /// for the next recovery when the storage cannot be used now.
    mutating func purgeStored() {
        if lock.isActive && ensureReady() {
            purgeStorage()
        } else {
            purgePending = true
        }
        finish(persisted: 0, failed: 0, reason: .writeFailed, sequence: purgedThrough)
    }

    /// Deletes every segment durably: the cursor moves past every segment and is
    /// synced with the directory before the segments go, and the deletions are synced
    /// after, so that no purged record comes back after a power loss.
    mutating func purgeStorage() {
        purgePending = false
        let stored = segments.reduce(0) { $0 + $1.unacknowledged }
        let accepted = segments.reduce(0) { $0 + min($1.accepted, $1.unacknowledged) }
        cursor = Cursor(segment: nextID, offset: 0)
        nextID &+= 1
        syncs += 3
        do {
            try store.storeState(Self.encode(cursor), as: .cursor)
            try store.syncDirectory()
        } catch { reportError(error) }
        for segment in segments {
            do { try store.remove(segment.id) } catch { reportError(error) }
        }
        do {
            try store.syncDirectory()
            try store.flushDrive()
        } catch { reportError(error) }
        segments.removeAll()
        storedBytes = 0
        active = nil
        reportedUnreadable.removeAll()
        state.withLock { state in
            state.metrics.dropped[.purged, default: 0] += stored
            state.metrics.backlog = 0
            state.metrics.persisted -= accepted
            state.metrics.storedBytes = 0
            state.metrics.unreadableSegments = 0
            state.metrics.syncs = syncs
        }
    }
}
