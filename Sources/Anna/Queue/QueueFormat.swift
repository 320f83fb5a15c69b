/// The on-disk format of a queue's files, and how a reader tells which format a
/// file is in before it trusts the bytes.
///
/// Format 1 (this version) and format 0 (Anna before formats were numbered):
/// ```
/// segment  format 1: header | records        format 0: records
///          header: 0xA5 'A' 'Q' 'S' | version: UInt32 = 1 | CRC-32 of the 8 bytes before: UInt32
///          record: 0xA5 0x4E | length: UInt32 | CRC-32 of the payload: UInt32 | payload  (both formats)
/// cursor   format 1: version: UInt32 = 1 | segment: UInt64 | offset: UInt64 | CRC-32 of all before   (24 bytes)
///          format 0: segment: UInt64 | offset: UInt64 | CRC-32 of all before                          (20 bytes)
/// stamps   version: UInt32 = 1 | … | CRC-32 of all before   (unchanged since format 0)
/// ```
/// All little-endian. The envelope is the promise later formats keep: a segment starts
/// with the 12-byte header, and a state file starts with its version and ends with
/// a CRC-32 of every byte before it (and a cursor is never 20 bytes again). So a
/// reader recognizes a later format without understanding it.
///
/// A reader reads every earlier format as it is: it never rewrites a segment, it
/// writes new segments in its own format, and it saves the cursor and the stamps in
/// its own format the next time it saves them (atomically, as always). There is no
/// upgrade in place, so no crash can leave a half-upgraded file.
///
/// A folder holding any file of a later format belongs to that later version: the
/// reader leaves it as it is (no file in it deleted, rewritten or uploaded), reports
/// it once, and keeps its own queue in the subfolder `format-<its format>/`, locked
/// by the folder's lock, where the later version finds it and delivers it.
enum QueueFormat {
    /// The format this version writes and the newest it reads.
    static let current: UInt32 = 1
    /// The subfolder a reader of format `version` keeps its queue in when the folder
    /// belongs to a later format.
    static func folderName(_ version: UInt32) -> String { "format-\(version)" }

    /// What a segment's first bytes say about its format.
    enum SegmentHeader {
        static let size = 12
        static let magic: [UInt8] = [0xA5, 0x41, 0x51, 0x53]

        /// The header of a segment of format `version`.
        static func encoded(version: UInt32 = QueueFormat.current) -> [UInt8] {
            var bytes = magic
            withUnsafeBytes(of: version.littleEndian) { bytes.append(contentsOf: $0) }
            withUnsafeBytes(of: CRC32.checksum(bytes).littleEndian) { bytes.append(contentsOf: $0) }
            return bytes
        }

        /// The format of a segment whose first bytes are `bytes`: its header's version,
        /// or 0 when it has no intact header. A torn header (a crash while the segment
        /// was created) is read as format 0: its bytes are skipped as damage, and any
        /// record after them is still found.
        static func version(of bytes: some Collection<UInt8>) -> UInt32 {
            let head = Array(bytes.prefix(size))
            guard head.count == size, Array(head[0..<4]) == magic,
                CRC32.checksum(head[0..<8]) == load(head, 8)
            else { return 0 }
            return load(head, 4)
        }
    }

    /// The version of a state file of format 1 or later: its first `UInt32`, when its
    /// last four bytes are the CRC-32 of the rest; `nil` for anything else (format 0,
    /// damage).
    static func stateVersion(of bytes: [UInt8]) -> UInt32? {
        guard bytes.count >= 8, CRC32.checksum(bytes[0..<bytes.count - 4]) == load(bytes, bytes.count - 4) else {
            return nil
        }
        return load(bytes, 0)
    }

    static func load(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
    }
}
