import Foundation
import Testing

@_spi(DurableQueue) @testable import Anna

/// A file store whose writes fail with ENOSPC after `budget` bytes, as a full disk does:
/// the bytes that fit are written, then the write fails, leaving a torn record.
final class FullDiskStore: ForwardingStore, @unchecked Sendable {
    private let lock = NSLock()
    private var budget: Int

    init(directory: URL, budget: Int) {
        self.budget = budget
        super.init(base: FileSegmentStore(directory: directory))
    }

    func setBudget(_ bytes: Int) { lock.withLock { budget = bytes } }

    override func write(_ bytes: UnsafeRawBufferPointer, to id: UInt64, at offset: Int) throws {
        let allowed = lock.withLock { () -> Int in
            let allowed = min(budget, bytes.count)
            budget -= allowed
            return allowed
        }
        try base.write(UnsafeRawBufferPointer(rebasing: bytes[0..<allowed]), to: id, at: offset)
        if allowed < bytes.count { throw DurableStorageError(operation: "writing", path: "segment", code: ENOSPC) }
    }
}

@Suite struct FullDiskTests {
    @Test func aFullDiskRefusesNewRecordsKeepsOldOnesAndRecovers() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        do {
            let store = FullDiskStore(directory: directory.url, budget: QueueFormat.SegmentHeader.size + 18 * 10 + 5)
            let errors = LockedState<[DurableStorageError]>([])
            let queue = try DurableQueue(
                store: store, configuration: DurableQueue.Configuration(),
                errorHandler: { error in errors.withLock { $0.append(error) } })
            queue.appendNumbered(0..<10)
            await queue.waitUntilPersisted()
            queue.appendNumbered(0..<5)  // 5 × 18 bytes; 5 fit
            await queue.waitUntilPersisted()
            var metrics = queue.metrics
            #expect(metrics.persisted == 10 && metrics.dropped[.writeFailed, default: 0] == 5)
            // One error per write pass; a slow machine may split the five records over two.
            let codes = errors.withLock { $0.map(\.code) }
            #expect(!codes.isEmpty && codes.allSatisfy { $0 == ENOSPC })
            // The torn bytes were cut off; space comes back and writing goes on.
            store.setBudget(.max)
            queue.appendNumbered(10..<12)
            await queue.waitUntilPersisted()
            #expect(await queue.readAllText() == (0..<12).map { "record-\($0)" })
            metrics = queue.metrics
            #expect(metrics.persisted == 12 && metrics.backlog == 12)
        }
        let reopened = try DurableQueue(storage: .directory(directory.url))
        #expect(await reopened.readAllText() == (0..<12).map { "record-\($0)" })
        #expect(reopened.metrics.skippedBytes == 0)
    }
}
