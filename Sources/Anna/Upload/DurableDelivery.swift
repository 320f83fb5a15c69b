import Foundation

/// The durable half of a provider that delivers to a collector over HTTP: a
/// `DurableQueue`, the records its ``CollectorWire`` encodes, counters and a
/// ``BatchUploader`` that drives the ``UploadStateMachine``. ``HTTPBatchProvider``
/// and AnnaDestinations' Amplitude, Mixpanel and PostHog providers are each a thin
/// public face over one, so every collector gets the same durability, back-pressure,
/// offline handling, gzip, suspension and kill -9 guarantee.
///
/// Threads: ``receive(_:)`` runs on the service's lane for its provider, with the
/// encoder behind its own lock; the counters are behind theirs. The queue's state
/// belongs to its writer queue and the upload decisions to the uploader thread.
package final class DurableDelivery: Sendable {
    /// The wire protocol.
    package let wire: any CollectorWire
    /// Limits, retries and the queue's configuration.
    package let configuration: HTTPBatchProvider.Configuration
    let queue: DurableQueue
    private let encoder: LockedState<any CollectorRecordEncoder>
    private let counters: LockedState<HTTPBatchProvider.Metrics>
    private let uploader: BatchUploader

    /// Opens the storage and starts the queue's writer and the uploader.
    /// - Throws: ``DeliveryError`` with code ``DeliveryError/Code/insecureEndpoint`` for an
    ///   endpoint neither `https` nor loopback `http`, ``DeliveryError/Code/storageLocked``
    ///   or ``DeliveryError/Code/storage``.
    package init(wire: any CollectorWire, storage: DeliveryStorage, configuration: HTTPBatchProvider.Configuration) throws {
        guard Self.isAllowed(wire.endpoint) else { throw DeliveryError.insecureEndpoint(wire.endpoint) }
        self.wire = wire
        self.configuration = configuration
        encoder = LockedState(wire.makeEncoder())
        let errorHandler = configuration.errorHandler
        do {
            queue = try DurableQueue(
                storage: storage, configuration: configuration.queue,
                errorHandler: { error in errorHandler?(.storage(error)) })
        } catch let error as DurableStorageError where error.isLockConflict {
            throw DeliveryError.storageLocked(error)
        } catch let error as DurableStorageError {
            throw DeliveryError.storage(error)
        }
        let counters = LockedState(HTTPBatchProvider.Metrics())
        self.counters = counters
        var shared: SharedDeliveryFolder?
        if case .shared(let folder) = storage {
            shared = SharedDeliveryFolder(
                folder: folder, lockPolicy: configuration.queue.lockPolicy,
                uploadLease: configuration.requestTimeout + .seconds(1), syncMode: configuration.queue.syncMode)
        }
        uploader = BatchUploader(wire: wire, queue: queue, configuration: configuration, counters: counters, shared: shared)
        uploader.start()
    }

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
    /// last chunk (the queue's `waitForRoom()`).
    package func receive(_ batch: [AnalyticsEnvelope]) async {
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

    /// ``HTTPBatchProvider/flush()``.
    package func flush() async {
        guard !uploader.isSuspended else { return }
        await queue.waitUntilPersisted()
        await uploader.flush()
    }

    /// ``HTTPBatchProvider/purge()``.
    package func purge() async {
        await uploader.purge()
    }

    /// ``HTTPBatchProvider/shutdown()``.
    package func shutdown() async {
        if uploader.isSuspended {
            // Suspended, the uploader stops without a last round.
            await uploader.stop()
            if (try? queue.reacquireLock()) != nil { await queue.waitUntilPersisted() }
        } else {
            await queue.waitUntilPersisted()
            await uploader.stop()
        }
        await queue.releaseLock()
    }

    /// ``HTTPBatchProvider/networkPathChanged(_:)``.
    package func networkPathChanged(_ path: NetworkPath) {
        uploader.pathChanged(path)
    }

    /// ``HTTPBatchProvider/suspend()``.
    package func suspend() async {
        guard await uploader.suspend() else { return }
        await queue.releaseLock()
    }

    /// ``HTTPBatchProvider/resume()``.
    package func resume() async {
        do {
            try retakeStorage()
        } catch let error as DeliveryError {
            configuration.errorHandler?(error)
        } catch {}
    }

    /// ``resume()``, throwing what it reports.
    func retakeStorage() throws {
        do {
            try queue.reacquireLock()
        } catch let error as DurableStorageError where error.isLockConflict {
            throw DeliveryError.storageLocked(error)
        } catch let error as DurableStorageError {
            throw DeliveryError.storage(error)
        }
        uploader.resume()
    }

    /// ``HTTPBatchProvider/waitUntilPersisted()``.
    package func waitUntilPersisted() async {
        await queue.waitUntilPersisted()
    }

    /// What the queue counted since it opened.
    var queueMetrics: DurableQueue.Metrics { queue.metrics }

    /// ``HTTPBatchProvider/metrics``.
    package var metrics: HTTPBatchProvider.Metrics {
        let stored = queue.metrics
        var metrics = counters.withLock { $0 }
        metrics.persisted = stored.persisted
        metrics.backlog = stored.backlog
        metrics.recovered = stored.recovered
        metrics.skippedBytes = stored.skippedBytes
        for (reason, count) in stored.dropped where count > 0 {
            metrics.dropped[reason, default: 0] += count
        }
        return metrics
    }
}
