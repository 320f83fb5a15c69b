import Foundation

extension DurableQueue.Writer {
    /// A file of a later format than this version's (``QueueFormat``).
    struct NewerFormat {
        var file: String
        var version: UInt32
    }

    /// The first file of a later format in the store, read before recovery changes
    /// anything: the cursor, the stamps, each segment's header.
    func newerFormat(ids: [UInt64], cursor: [UInt8]?, stamps: [UInt8]?) -> NewerFormat? {
        // A format-0 cursor is 20 bytes and would pass the envelope check by its own CRC.
        if let cursor, cursor.count != 20, let version = QueueFormat.stateVersion(of: cursor),
            version > QueueFormat.current
        {
            return NewerFormat(file: "cursor", version: version)
        }
        if let stamps, let version = QueueFormat.stateVersion(of: stamps), version > QueueFormat.current {
            return NewerFormat(file: "stamps", version: version)
        }
        for id in ids {
            // A segment that cannot be read now is read, and so checked, later.
            guard let head = try? store.read(id, at: 0, count: QueueFormat.SegmentHeader.size) else { continue }
            let version = QueueFormat.SegmentHeader.version(of: head)
            if version > QueueFormat.current {
                let hex = String(id, radix: 16)
                return NewerFormat(file: String(repeating: "0", count: max(0, 16 - hex.count)) + hex + ".seg", version: version)
            }
        }
        return nil
    }

    /// Moves to the format subfolder, once, reporting the later format once per queue.
    /// `false` when it cannot: then nothing is written until it can.
    mutating func moveToFormatFolder(_ newer: NewerFormat) -> Bool {
        let folder: String?
        do { folder = try store.useFormatFolder(QueueFormat.current) } catch {
            reportError(error)
            storage = .unlisted
            return false
        }
        if !reportedNewerFormat {
            reportedNewerFormat = true
            reportError(DurableStorageError.newerFormat(
                path: (location as NSString).appendingPathComponent(newer.file), found: newer.version,
                supported: QueueFormat.current, folder: folder ?? location))
        }
        guard folder != nil else {
            // Already in its subfolder (or in memory), and a later format there too.
            storage = .unlisted
            return false
        }
        return true
    }
}
