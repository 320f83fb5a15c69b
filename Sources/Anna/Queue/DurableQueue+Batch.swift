extension DurableQueue {
    /// Records framed outside the queue's lock (length and checksum computed by the
    /// caller's thread), then handed over at once with the queue's `append(_ batch:)`.
    ///
    /// A value owned by whoever builds it. Each payload must be at most
    /// ``Configuration/maxRecordSize`` bytes; the caller checks, as the queue's
    /// single-record `append` does.
    struct Batch {
        var bytes: [UInt8] = []
        /// The number of records in the batch.
        var count = 0

        /// An empty batch with room for `capacity` framed bytes.
        init(reservingCapacity capacity: Int) {
            bytes.reserveCapacity(capacity)
        }

        /// Frames `payload` (length and CRC-32) and adds it.
        mutating func append(_ payload: UnsafeRawBufferPointer) {
            RecordFraming.append(payload, to: &bytes)
            count += 1
        }
    }
}
