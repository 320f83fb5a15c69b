import Foundation
import Testing

@_spi(DurableQueue) @testable import Anna

/// Defect 12: one queue per directory, enforced by `flock`, and a lock the app can
/// give up while suspended.
@Suite struct StorageLockTests {
    /// `flock` belongs to an open file description: a second queue in the same process
    /// conflicts too, with an error that says what to do. Deallocating frees it.
    @Test func aSecondQueueOnTheSameDirectoryFailsToOpen() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        do {
            let first = try DurableQueue(storage: .directory(directory.url))
            first.appendNumbered(0..<3)
            do {
                _ = try DurableQueue(storage: .directory(directory.url))
                Issue.record("a second queue opened a locked directory")
            } catch let error as DurableStorageError {
                #expect(error.isLockConflict && error.operation == "locking")
                #expect(error.description.contains("another DurableQueue, in this or another process, uses \(directory.url.path)"))
                #expect(error.description.contains("give each provider and process its own directory"))
            }
            #expect {
                _ = try DurableProvider(
                    endpoint: URL(string: "https://collector.example/v1/batch")!, writeKey: "key",
                    storage: .directory(directory.url))
            } throws: { error in
                guard let delivery = error as? DeliveryError, delivery.code == .storageLocked, let storage = delivery.storageError else { return false }
                return storage.isLockConflict
            }
            await first.waitUntilPersisted()
        }
        let reopened = try DurableQueue(storage: .directory(directory.url))
        #expect(await reopened.readAllText() == numbered(0..<3))
    }

    /// Released, the directory can be used by another queue (an app extension, say);
    /// appends wait in memory; reacquired, the queue recovers what the other wrote
    /// and writes what waited.
    @Test func releaseAndReacquire() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let queue = try DurableQueue(storage: .directory(directory.url))
        queue.appendNumbered(0..<5)
        await queue.waitUntilPersisted()
        await queue.releaseLock()
        queue.appendNumbered(5..<8)
        #expect(queue.metrics.persisted == 5 && queue.metrics.bufferedBytes > 0)
        #expect(await queue.readAllText().isEmpty, "no file is touched while released")
        do {
            let other = try DurableQueue(storage: .directory(directory.url))
            #expect(await other.readAllText() == numbered(0..<5))
            other.appendNumbered(100..<102)
            await other.waitUntilPersisted()
            #expect(throws: DurableStorageError.self) { try queue.reacquireLock() }
            // Given up explicitly, as an extension does when it is done: when `other`
            // is deallocated depends on which thread releases its last reference (a
            // continuation resumed on its writer's queue may hold one a moment longer),
            // so the test does not rely on it.
            await other.releaseLock()
        }
        try queue.reacquireLock()
        await queue.waitUntilPersisted()
        #expect(queue.metrics.persisted == 8)
        #expect(await queue.readAllText() == numbered(0..<5) + numbered(100..<102) + numbered(5..<8))
    }

    /// Another process holds the directory while it runs and frees it when killed.
    @Test func anotherProcessHoldsTheLockUntilItDies() async throws {
        let collector = try LoopbackCollector()
        defer { collector.stop() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let child = try ChildProcess(["report", directory.url.path, collector.endpoint.absoluteString, "0"])
        #expect(await eventually(within: 30) { child.lines.contains { $0.hasPrefix("persisted") } })
        #expect {
            _ = try DurableQueue(storage: .directory(directory.url))
        } throws: { error in
            (error as? DurableStorageError)?.isLockConflict == true
        }
        child.kill()
        _ = try DurableQueue(storage: .directory(directory.url))
    }
}

/// Defect 13 and 16: a bounded buffer, and acknowledgements that count what they remove.
@Suite struct BufferBoundTests {
    /// Beyond `maxBufferedBytes`, `append` refuses, counts and reports, never blocks;
    /// `waitForRoom` starts the writer and returns once there is room.
    @Test func aFullBufferRefusesCountsAndReports() async throws {
        let errors = ErrorLog()
        let queue = try DurableQueue(
            store: MemorySegmentStore(),
            configuration: .init(
                syncInterval: .seconds(3600), maxRecordSize: 100, writeThreshold: 1 << 30, maxBufferedBytes: 4096),
            errorHandler: errors.handler)
        var taken = 0
        for number in 0..<1000 where queue.append(Array("record-\(number)".utf8)) { taken += 1 }
        var metrics = queue.metrics
        #expect(taken > 100 && taken < 1000)
        #expect(metrics.bufferedBytes <= 4096 && metrics.dropped[.bufferFull, default: 0] == 1000 - taken)
        #expect(await eventually { errors.all.contains { $0.operation == "buffering" && $0.code == ENOBUFS } })
        #expect(errors.all.count == 1, "one report per full buffer, not one per record")
        await queue.waitForRoom()
        #expect(queue.metrics.bufferedBytes < 4096)
        await queue.waitUntilPersisted()
        metrics = queue.metrics
        #expect(metrics.persisted == taken && metrics.appended == taken)
        // A batch is taken whole under the bound, even past it; the next is refused whole.
        var batch = DurableQueue.Batch(reservingCapacity: 8192)
        for number in 0..<400 { Array("record-\(number)".utf8).withUnsafeBytes { batch.append($0) } }
        #expect(queue.append(&batch) == 400 && batch.count == 0)
        for number in 0..<10 { Array("record-\(number)".utf8).withUnsafeBytes { batch.append($0) } }
        #expect(queue.append(&batch) == 0 && batch.count == 0)
        #expect(queue.metrics.dropped[.bufferFull, default: 0] == 1000 - taken + 10)
        await queue.waitForRoom()
        for number in 400..<410 { Array("record-\(number)".utf8).withUnsafeBytes { batch.append($0) } }
        #expect(queue.append(&batch) == 10)
        await queue.waitUntilPersisted()
        let texts = await queue.readAllText()
        #expect(texts == numbered(0..<taken) + numbered(0..<400) + numbered(400..<410))
    }

    /// Records the byte cap dropped after they were read are not acknowledged again.
    @Test func acknowledgingCountsOnlyWhatItRemoves() async throws {
        let queue = try DurableQueue(
            storage: .memory(limit: 16 << 10), configuration: .init(writeThreshold: 1024))
        queue.appendNumbered(0..<100)
        await queue.waitUntilPersisted()
        let early = await queue.read(maxRecords: .max, maxBytes: .max)
        #expect(early.count == 100)
        for batch in 1..<20 {
            queue.appendNumbered(batch * 100..<(batch + 1) * 100)
            await queue.waitUntilPersisted()
        }
        let dropped = queue.metrics.dropped[.capacity, default: 0]
        #expect(dropped >= 100)
        #expect(await queue.acknowledge(early) == 0)
        #expect(queue.metrics.acknowledged == 0)
        let rest = await queue.read(maxRecords: .max, maxBytes: .max)
        #expect(await queue.acknowledge(rest) == rest.count)
        #expect(queue.metrics.acknowledged == rest.count && queue.metrics.backlog == 0)
        #expect(queue.metrics.acknowledged + dropped == 2000)
    }
}
