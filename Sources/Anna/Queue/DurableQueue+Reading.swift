import Foundation

extension DurableQueue.Writer {
    /// Reads the oldest unacknowledged records from the segments, a chunk at a time.
    /// Stops before a segment that cannot be read yet (trying it again first), so that
    /// nothing after it is acknowledged and the cursor never passes it.
    mutating func read(maxRecords: Int, maxBytes: Int) -> [DurableQueue.Record] {
        guard ensureReady() else { return [] }
        dropExpired(now: clock.now())
        var records: [DurableQueue.Record] = []
        var payloadBytes = 0
        let chunkSize = min(maxBytes, 1 << 20) + (64 << 10)
        var index = 0
        while index < segments.count {
            if segments[index].isUnread {
                // A segment of a later format found now: nothing of the folder is read.
                guard retryUnread(at: index) else { return storage == .ready ? records : [] }
                continue  // read now, or deleted (nothing left in it)
            }
            let segment = segments[index]
            index += 1
            guard segment.id >= cursor.segment else { continue }
            var offset = segment.id == cursor.segment ? max(cursor.offset, segment.start) : segment.start
            // Where the file really ends: its recorded size until a read comes back short
            // (another process or the OS cut it), then what was there.
            var end = segment.size
            var wanted = chunkSize
            while offset < end {
                let requested = min(wanted, end - offset)
                let chunk: [UInt8]
                do {
                    chunk = try store.read(segment.id, at: offset, count: requested)
                } catch {
                    reportError(error)
                    return records
                }
                if chunk.count < requested { end = offset + chunk.count }
                if chunk.isEmpty { break }
                largestRead = max(largestRead, chunk.count)
                var position = 0
                var needed = 0
                let full = chunk.withUnsafeBytes { bytes -> Bool in
                    while position < bytes.count {
                        let candidate = RecordFraming.candidate(
                            in: bytes, at: position, available: end - offset - position, maxPayload: maxPayloadSize)
                        switch candidate {
                        case .record(let payload, let recordEnd):
                            if !records.isEmpty && payloadBytes + payload.count > maxBytes { return true }
                            records.append(DurableQueue.Record(
                                payload: Array(bytes[payload]), segment: segment.id, end: offset + recordEnd,
                                generation: generation))
                            payloadBytes += payload.count
                            position = recordEnd
                            if records.count >= maxRecords { return true }
                        case .incomplete(let count):
                            needed = count
                            return false
                        case .garbage:
                            position += 1
                        }
                    }
                    return false
                }
                if full { return records }
                offset += position
                wanted = max(chunkSize, needed)
            }
        }
        return records
    }

    /// Removes acknowledged records: moves the cursor, stores it durably, deletes
    /// passed segments.
    /// - Returns: How many of `records` were still in the backlog and so removed now;
    ///   records a cap dropped in the meantime were counted there already.
    ///   Records read from another store (the queue moved since) or that another
    ///   process acknowledged meanwhile (adopted) are not counted, nor acknowledged again.
    mutating func acknowledge(_ records: ArraySlice<DurableQueue.Record>) -> Int {
        guard let last = records.last, ensureReady(), last.generation == generation else { return 0 }
        let before = cursor
        var counted = 0
        var index = 0
        for record in records where before < Cursor(segment: record.segment, offset: record.end) {
            while index < segments.count && segments[index].id < record.segment { index += 1 }
            if index < segments.count && segments[index].id == record.segment && segments[index].unacknowledged > 0 {
                segments[index].unacknowledged -= 1
                counted += 1
            }
        }
        cursor = max(cursor, Cursor(segment: last.segment, offset: last.end))
        // The rename must be durable before `acknowledge` returns, or a power loss
        // brings acknowledged records back.
        do {
            syncs += 2
            try store.storeState(Self.encode(cursor), as: .cursor)
            try store.syncDirectory()
        } catch { reportError(error) }
        // Segments before the cursor's, and the cursor's own once read to its end
        // (the active one too: the next write starts a new segment).
        while let first = segments.first, !first.isUnread,
            first.id < cursor.segment || (first.id == cursor.segment && cursor.offset >= first.size)
        {
            let segment = segments.removeFirst()
            if segment.id == active { active = nil }
            try? store.remove(segment.id)
            storedBytes -= segment.size
        }
        let stored = storedBytes
        state.withLock { state in
            state.metrics.acknowledged += counted
            state.metrics.backlog -= counted
            state.metrics.storedBytes = stored
            state.metrics.syncs = syncs
        }
        return counted
    }

    /// The cursor as stored in format 1: version, segment and offset (`UInt32`,
    /// `UInt64`, `UInt64`, little-endian), CRC-32 of all three (``QueueFormat``).
    static func encode(_ cursor: Cursor) -> [UInt8] {
        var bytes: [UInt8] = []
        withUnsafeBytes(of: QueueFormat.current.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: cursor.segment.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt64(cursor.offset).littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: CRC32.checksum(bytes).littleEndian) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// The stored cursor, format 1 or format 0 (20 bytes: segment, offset, CRC-32), or
    /// `nil` when it is damaged: then every record is sent again, which a collector
    /// deduplicates by message id, rather than lost. A later format's cursor is never
    /// decoded here: ``QueueFormat/stateVersion(of:)`` finds it first. The offset is
    /// compared as `UInt64` before it becomes an `Int` (32 bits on watchOS).
    static func decode(_ bytes: [UInt8]) -> Cursor? {
        let start: Int
        if bytes.count == 20 {
            start = 0
        } else if bytes.count == 24, QueueFormat.stateVersion(of: bytes) == 1 {
            start = 4
        } else {
            return nil
        }
        guard CRC32.checksum(bytes[0..<start + 16]) == load(bytes, start + 16, as: UInt32.self) else { return nil }
        guard let offset = Int(exactly: load(bytes, start + 8, as: UInt64.self)) else { return nil }
        return Cursor(segment: load(bytes, start, as: UInt64.self), offset: offset)
    }

    private static func load<T: FixedWidthInteger>(_ bytes: [UInt8], _ offset: Int, as type: T.Type) -> T {
        bytes.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: T.self)) }
    }
}
