/// How a record sits in a segment: a 10-byte header, then the payload.
///
/// ```
/// 0xA5 0x4E | length: UInt32 little-endian | CRC-32 of the payload: UInt32 LE | payload
/// ```
/// The marker lets recovery find the next record quickly after damaged bytes; the
/// checksum decides whether a candidate is a record. A torn write leaves a header
/// whose payload runs past the end of the file or fails its checksum, and is skipped.
enum RecordFraming {
    static let headerSize = 10
    static let marker: (UInt8, UInt8) = (0xA5, 0x4E)

    /// Appends `payload`, framed, to `buffer`.
    static func append(_ payload: UnsafeRawBufferPointer, to buffer: inout [UInt8]) {
        append(payload, crc: CRC32.checksum(payload), to: &buffer)
    }

    /// Appends `payload`, framed with a checksum computed beforehand (outside a lock).
    static func append(_ payload: UnsafeRawBufferPointer, crc: UInt32, to buffer: inout [UInt8]) {
        let length = UInt32(payload.count)
        buffer.append(marker.0)
        buffer.append(marker.1)
        withUnsafeBytes(of: length.littleEndian) { buffer.append(contentsOf: $0) }
        withUnsafeBytes(of: crc.littleEndian) { buffer.append(contentsOf: $0) }
        buffer.append(contentsOf: payload)
    }

    /// What a scan found at one position.
    enum Candidate {
        /// A record whose payload is `payload` (offsets in the scanned buffer); it ends at `end`.
        case record(payload: Range<Int>, end: Int)
        /// A header whose payload lies past the end of the buffer but within `available`
        /// bytes of the file: read `needed` bytes from this position and look again.
        case incomplete(needed: Int)
        /// No record starts here.
        case garbage
    }

    /// Looks for a record at `position` of `bytes`.
    /// - Parameters:
    ///   - available: Bytes of the file from `position` on, which may exceed the buffer.
    ///   - maxPayload: Longer payloads are taken for damage.
    static func candidate(
        in bytes: UnsafeRawBufferPointer, at position: Int, available: Int, maxPayload: Int
    ) -> Candidate {
        let remaining = bytes.count - position
        guard remaining >= headerSize else {
            return available >= headerSize && available > remaining ? .incomplete(needed: headerSize) : .garbage
        }
        guard bytes[position] == marker.0, bytes[position + 1] == marker.1 else { return .garbage }
        let rawLength = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: position + 2, as: UInt32.self))
        guard let length = checkedLength(rawLength, maxPayload: maxPayload, available: available) else { return .garbage }
        guard headerSize + length <= remaining else { return .incomplete(needed: headerSize + length) }
        let crc = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: position + 6, as: UInt32.self))
        let start = position + headerSize
        let payload = UnsafeRawBufferPointer(rebasing: bytes[start..<start + length])
        guard CRC32.checksum(payload) == crc else { return .garbage }
        return .record(payload: start..<start + length, end: start + length)
    }

    /// A header's length field as an `Int`, or `nil` when it exceeds `maxPayload` or
    /// the `available` bytes (header included). Compared as `UInt64` first: on a
    /// 32-bit platform (watchOS's arm64_32) `Int(UInt32)` traps from 2^31 on, and no
    /// bytes on disk may trap.
    static func checkedLength(_ length: UInt32, maxPayload: Int, available: Int) -> Int? {
        let wide = UInt64(length)
        guard maxPayload >= 0, available >= headerSize, wide <= UInt64(maxPayload),
            wide + UInt64(headerSize) <= UInt64(available)
        else { return nil }
        return Int(exactly: length)
    }

    /// The end of the framed records of `bytes` from `start` that fit in `limit`
    /// bytes, and their number; with `atLeastOne`, the first record even if it does
    /// not fit. Stops at anything that is not a whole record.
    static func prefix(
        of bytes: [UInt8], from start: Int, limit: Int, atLeastOne: Bool
    ) -> (end: Int, records: Int) {
        var end = start
        var records = 0
        bytes.withUnsafeBytes { raw in
            while raw.count - end >= headerSize {
                let rawLength = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: end + 2, as: UInt32.self))
                guard let length = checkedLength(rawLength, maxPayload: .max - headerSize, available: raw.count - end)
                else { break }
                let next = end + headerSize + length
                if (records > 0 || !atLeastOne) && next - start > limit { break }
                end = next
                records += 1
            }
        }
        return (end, records)
    }

    /// What a whole-buffer scan found.
    struct Scan {
        /// Each intact record's payload range and end.
        var records: [(payload: Range<Int>, end: Int)] = []
        /// Bytes that belonged to no intact record.
        var skippedBytes = 0
        /// Runs of such bytes; each run lost at least one record or was a torn tail.
        var skippedRegions = 0
    }

    /// Finds every intact record in `bytes`, skipping damaged ones byte by byte
    /// until the next intact record.
    static func scan(_ bytes: UnsafeRawBufferPointer, maxPayload: Int) -> Scan {
        var scan = Scan()
        var position = 0
        var inGarbage = false
        while position < bytes.count {
            switch candidate(in: bytes, at: position, available: bytes.count - position, maxPayload: maxPayload) {
            case .record(let payload, let end):
                scan.records.append((payload, end))
                position = end
                inGarbage = false
            case .incomplete, .garbage:
                if !inGarbage { scan.skippedRegions += 1 }
                inGarbage = true
                scan.skippedBytes += 1
                position += 1
            }
        }
        return scan
    }
}
