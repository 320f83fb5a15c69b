import Foundation
import Testing

@_spi(DurableQueue) @testable import Anna

/// A file store with faults switched on and off by the test: segments whose opening
/// and reading fail, a listing that fails or misses every segment.
final class FaultyStore: ForwardingStore, @unchecked Sendable {
    private let faults = LockedState(Faults())

    struct Faults {
        var unreadable: Set<UInt64> = []
        var listingFails = false
        var listingIsEmpty = false
    }

    init(directory: URL) {
        super.init(base: FileSegmentStore(directory: directory))
    }

    func set(_ change: (inout Faults) -> Void) { faults.withLock(change) }

    override func willUse(_ operation: String, _ id: UInt64?) throws {
        let faults = faults.withLock { $0 }
        if operation == "segmentIDs" && faults.listingFails {
            throw DurableStorageError(operation: "listing", path: "test", code: EIO)
        }
        if let id, faults.unreadable.contains(id), operation == "contents" || operation == "read" {
            throw DurableStorageError(operation: "opening", path: "segment \(id)", code: EIO)
        }
    }

    override func segmentIDs() throws -> [UInt64] {
        try willUse("segmentIDs", nil)
        return faults.withLock { $0.listingIsEmpty } ? [] : try base.segmentIDs()
    }
}

/// Collects what a queue reports.
final class ErrorLog: Sendable {
    private let errors = LockedState<[DurableStorageError]>([])
    var all: [DurableStorageError] { errors.withLock { $0 } }
    var handler: @Sendable (DurableStorageError) -> Void { { error in self.errors.withLock { $0.append(error) } } }
}

func numbered(_ range: Range<Int>) -> [String] { range.map { "record-\($0)" } }

@Suite struct StorageFaultTests {
    /// 600 records in three or more segments of about 4 KB, written and closed.
    static func writeThreeSegments(_ directory: TemporaryDirectory) async throws {
        let queue = try DurableQueue(
            storage: .directory(directory.url), configuration: .init(segmentSize: 4096, writeThreshold: 1024))
        for batch in 0..<3 {
            queue.appendNumbered(batch * 200..<(batch + 1) * 200)
            await queue.waitUntilPersisted()
        }
    }

    /// Defect 1: a segment that cannot be read at open is kept, never passed by the
    /// cursor, retried at the next open and within the run, reported and counted.
    @Test func anUnreadableSegmentIsKeptAndReadOnceItCanBe() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        try await Self.writeThreeSegments(directory)
        let ids = directory.segments.compactMap { UInt64($0.deletingPathExtension().lastPathComponent, radix: 16) }
        try #require(ids.count >= 3)
        let store = FaultyStore(directory: directory.url)
        store.set { $0.unreadable = [ids[1]] }
        var delivered: [String] = []
        do {
            let errors = ErrorLog()
            let queue = try DurableQueue(store: store, configuration: .init(), errorHandler: errors.handler)
            let records = await queue.read(maxRecords: .max, maxBytes: .max)
            delivered = records.map { String(decoding: $0.payload, as: UTF8.self) }
            // The first segment, whatever number of records filled it, and nothing after it.
            #expect(!delivered.isEmpty && delivered.count < 300)
            #expect(delivered == numbered(0..<delivered.count), "reading stops before the unreadable segment")
            await queue.acknowledge(records)
            #expect(await queue.readAllText().isEmpty)
            #expect(queue.metrics.unreadableSegments == 1)
            #expect(errors.all.count == 1 && errors.all.first?.code == EIO, "reported once, not at every read")
        }
        #expect(directory.segments.count == 2, "the unreadable segment is still there")
        let errors = ErrorLog()
        let queue = try DurableQueue(store: store, configuration: .init(), errorHandler: errors.handler)
        #expect(await queue.readAllText().isEmpty)
        #expect(queue.metrics.unreadableSegments == 1 && errors.all.count == 1)
        // The device is unlocked: the same run reads on, in order.
        store.set { $0.unreadable = [] }
        let rest = await queue.read(maxRecords: .max, maxBytes: .max)
        #expect(rest.map { String(decoding: $0.payload, as: UTF8.self) } == numbered(delivered.count..<600))
        #expect(queue.metrics.unreadableSegments == 0 && queue.metrics.backlog == 600 - delivered.count)
        #expect(await queue.acknowledge(rest) == 600 - delivered.count)
    }

    /// Defect 2: a listing that fails writes nothing (segment numbers are unknown),
    /// counts and reports it, and writes again once the listing works.
    @Test func aFailedListingRefusesToWriteAndOverwritesNothing() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        do {
            let queue = try DurableQueue(storage: .directory(directory.url))
            queue.appendNumbered(0..<10)
            await queue.waitUntilPersisted()
        }
        do {
            let store = FaultyStore(directory: directory.url)
            store.set { $0.listingFails = true }
            let errors = ErrorLog()
            let queue = try DurableQueue(store: store, configuration: .init(), errorHandler: errors.handler)
            queue.appendNumbered(10..<15)
            await queue.waitUntilPersisted()
            #expect(queue.metrics.persisted == 0 && queue.metrics.dropped[.storageUnavailable, default: 0] == 5)
            #expect(errors.all.first?.operation == "listing")
            #expect(await queue.readAllText().isEmpty)
            store.set { $0.listingFails = false }
            queue.appendNumbered(15..<17)
            await queue.waitUntilPersisted()
            #expect(queue.metrics.persisted == 2)
            #expect(await queue.readAllText() == numbered(0..<10) + ["record-15", "record-16"])
        }
        let reopened = try DurableQueue(storage: .directory(directory.url))
        #expect(await reopened.readAllText() == numbered(0..<10) + ["record-15", "record-16"])
    }

    /// Defect 2: a segment the listing missed is never written over (`O_EXCL`).
    @Test func aSegmentTheListingMissedIsNeverOverwritten() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        do {
            let queue = try DurableQueue(storage: .directory(directory.url))
            queue.appendNumbered(0..<10)
            await queue.waitUntilPersisted()
        }
        do {
            let store = FaultyStore(directory: directory.url)
            store.set { $0.listingIsEmpty = true }
            let queue = try DurableQueue(store: store, configuration: .init(), errorHandler: nil)
            queue.appendNumbered(10..<15)
            await queue.waitUntilPersisted()
            #expect(queue.metrics.persisted == 5)
        }
        let reopened = try DurableQueue(storage: .directory(directory.url))
        #expect(await reopened.readAllText() == numbered(0..<15))
    }

    /// Defect 16: a segment file shorter than the queue knows (cut by another process
    /// or the OS) gives what it holds; reading never spins.
    @Test(.timeLimit(.minutes(10))) func aSegmentCutShortIsReadWithoutSpinning() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let queue = try DurableQueue(storage: .directory(directory.url))
        queue.appendNumbered(0..<10)  // 18 bytes each
        await queue.waitUntilPersisted()
        let segment = try #require(directory.segments.last)
        let handle = try FileHandle(forUpdating: segment)
        try handle.truncate(atOffset: UInt64(QueueFormat.SegmentHeader.size + 18 * 5 + 7))
        try handle.close()
        #expect(await queue.readAllText() == numbered(0..<5))
        #expect(await queue.readAllText() == numbered(0..<5))
    }

    /// Defect 10: length fields of 2^31 and 2^32 - 1 are damage, never a trap (on a
    /// 32-bit platform `Int(UInt32)` would trap on both).
    @Test func hugeLengthFieldsAreSkipped() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        var bytes: [UInt8] = []
        for length: UInt32 in [0xFFFF_FFFF, 0x8000_0000, 0x7FFF_FFFF] {
            bytes += [0xA5, 0x4E]
            withUnsafeBytes(of: length.littleEndian) { bytes += $0 }
            bytes += [0, 0, 0, 0, 9, 9]
        }
        for number in 0..<3 { Array("record-\(number)".utf8).withUnsafeBytes { RecordFraming.append($0, to: &bytes) } }
        _ = FileManager.default.createFile(
            atPath: directory.url.appendingPathComponent("0000000000000001.seg").path, contents: Data(bytes))
        let queue = try DurableQueue(storage: .directory(directory.url))
        #expect(await queue.readAllText() == numbered(0..<3))
        #expect(queue.metrics.skippedBytes == 3 * 12)
        // The check itself compares as 64-bit before converting, whatever `Int` is.
        #expect(RecordFraming.checkedLength(0xFFFF_FFFF, maxPayload: 1 << 20, available: .max) == nil)
        #expect(RecordFraming.checkedLength(0x8000_0000, maxPayload: .max, available: 100) == nil)
        #expect(RecordFraming.checkedLength(90, maxPayload: .max, available: 100) == 90)
        #expect(RecordFraming.checkedLength(91, maxPayload: .max, available: 100) == nil)
    }
}
