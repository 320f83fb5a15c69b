import Foundation

extension DurableProvider {
    /// `https` anywhere; `http` for loopback hosts only: `localhost`, `[::1]`, and
    /// 127.0.0.0/8 written as canonical dotted decimal (digits only, no sign, no
    /// leading zero), so that no spelling a resolver might read otherwise passes.
    package static func isAllowed(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty else { return false }
        if scheme == "https" { return true }
        guard scheme == "http" else { return false }
        if host == "localhost" || host == "[::1]" || host == "::1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy(isCanonicalOctet)
    }

    /// `0` to `255` in decimal digits, without sign or leading zeros.
    private static func isCanonicalOctet(_ part: Substring) -> Bool {
        guard !part.isEmpty, part.count <= 3, part.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            part == "0" || part.first != "0", let value = Int(part)
        else { return false }
        return value <= 255
    }

    /// Envelopes encoded at a time by ``receive(_:)``: about 500 KB of JSON.
    /// A burst handed over at once is encoded chunk by chunk as the writer makes room,
    /// so its encoded copy never waits in memory beside the envelopes whole.
    static let receiveChunk = 1_000

    /// Encodes the events and appends them to the durable queue, a chunk at a time;
    /// returns without waiting for the disk, once the queue's buffer has room for the
    /// last chunk (the queue's `waitForRoom()`). An event larger than
    /// ``Configuration/maxEventSize`` encoded is dropped, counted
    /// (``DropReason/tooLarge``) and reported.
    /// - Parameter batch: Events in report order.
    public func receive(_ batch: [AnalyticsEnvelope]) async throws {
        var tooLarge = 0
        var records = DurableQueue.Batch(reservingCapacity: min(batch.count, Self.receiveChunk) * 480)
        var start = batch.startIndex
        while start < batch.endIndex {
            let end = min(start + Self.receiveChunk, batch.endIndex)
            tooLarge += encode(batch[start..<end], into: &records)
            // One lock and, when the writer's buffer is empty, no copy for the chunk.
            await queue.waitForRoom()
            queue.append(&records)
            start = end
        }
        counters.withLock { metrics in
            metrics.queued += batch.count - tooLarge
            if tooLarge > 0 { metrics.dropped[.tooLarge, default: 0] += tooLarge }
        }
        if tooLarge > 0 { configuration.errorHandler?(.dropped(events: tooLarge, reason: .tooLarge)) }
    }

    /// Encodes envelopes as framed records; returns how many were too large to keep.
    private func encode(_ envelopes: ArraySlice<AnalyticsEnvelope>, into records: inout DurableQueue.Batch) -> Int {
        encoder.withLock { encoder in
            var tooLarge = 0
            var bytes: [UInt8] = []
            bytes.reserveCapacity(1024)
            let limit = min(configuration.maxEventSize, queue.configuration.maxRecordSize)
            for envelope in envelopes {
                bytes.removeAll(keepingCapacity: true)
                encoder.encode(envelope, into: &bytes)
                if bytes.count > limit {
                    tooLarge += 1
                } else {
                    bytes.withUnsafeBytes { records.append($0) }
                }
            }
            return tooLarge
        }
    }
}
