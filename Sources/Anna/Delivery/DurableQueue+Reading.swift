import Foundation

extension DurableQueue.Writer {
    /// Reads the oldest unacknowledged records from the segments, a chunk at a time.
    func read(maxRecords: Int, maxBytes: Int) -> [DurableQueue.Record] {
        dropExpiredForReading()
        var records: [DurableQueue.Record] = []
        var payloadBytes = 0
        let chunkSize = min(maxBytes, 1 << 20) + (64 << 10)
        for segment in segments where segment.id >= cursor.segment {
            var offset = segment.id == cursor.segment ? cursor.offset : 0
            var wanted = chunkSize
            while offset < segment.size {
                let chunk: [UInt8]
                do {
                    chunk = try store.read(segment.id, at: offset, count: min(wanted, segment.size - offset))
                } catch {
                    reportError(error)
                    return records
                }
                if chunk.isEmpty { break }
                largestRead = max(largestRead, chunk.count)
                var position = 0
                var needed = 0
                let full = chunk.withUnsafeBytes { bytes -> Bool in
                    while position < bytes.count {
                        let candidate = RecordFraming.candidate(
                            in: bytes, at: position, available: segment.size - offset - position, maxPayload: maxPayloadSize)
                        switch candidate {
                        case .record(let payload, let end):
                            if !records.isEmpty && payloadBytes + payload.count > maxBytes { return true }
                            records.append(DurableQueue.Record(
                                payload: Array(bytes[payload]), segment: segment.id, end: offset + end))
                            payloadBytes += payload.count
                            position = end
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

    /// Removes acknowledged records: moves the cursor, stores it, deletes passed segments.
    func acknowledge(_ records: ArraySlice<DurableQueue.Record>) {
        guard let last = records.last else { return }
        var counted = 0
        var index = 0
        for record in records {
            while index < segments.count && segments[index].id < record.segment { index += 1 }
            if index < segments.count && segments[index].id == record.segment && segments[index].unacknowledged > 0 {
                segments[index].unacknowledged -= 1
                counted += 1
            }
        }
        cursor = max(cursor, Cursor(segment: last.segment, offset: last.end))
        do { try store.storeCursor(Self.encode(cursor)) } catch { reportError(error) }
        // Segments before the cursor's, and the cursor's own once read to its end
        // (the active one too: the next write starts a new segment).
        while let first = segments.first,
            first.id < cursor.segment || (first.id == cursor.segment && cursor.offset >= first.size)
        {
            removeFirstSegment()
        }
        let stored = storedByteCount
        state.withLock { state in
            state.metrics.acknowledged += records.count
            state.metrics.backlog -= counted
            state.metrics.storedBytes = stored
        }
    }

    static func encode(_ cursor: Cursor) -> [UInt8] {
        var bytes: [UInt8] = []
        withUnsafeBytes(of: cursor.segment.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt64(cursor.offset).littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: CRC32.checksum(bytes).littleEndian) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// The stored cursor, or `nil` when it is damaged: then every record is sent
    /// again, which a collector deduplicates by message id, rather than lost.
    static func decode(_ bytes: [UInt8]) -> Cursor? {
        guard bytes.count == 20, CRC32.checksum(bytes[0..<16]) == load(bytes, 16, as: UInt32.self) else { return nil }
        let offset = load(bytes, 8, as: UInt64.self)
        guard offset <= UInt64(Int.max) else { return nil }
        return Cursor(segment: load(bytes, 0, as: UInt64.self), offset: Int(offset))
    }

    private static func load<T: FixedWidthInteger>(_ bytes: [UInt8], _ offset: Int, as type: T.Type) -> T {
        bytes.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: T.self)) }
    }
}
