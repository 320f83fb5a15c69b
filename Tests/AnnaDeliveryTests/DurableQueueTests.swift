import Foundation
import Testing

@_spi(DurableQueue) @testable import Anna

@Suite struct CRC32Tests {
    @Test func knownVectors() {
        #expect(CRC32.checksum(Array("".utf8)) == 0)
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum(Array("The quick brown fox jumps over the lazy dog".utf8)) == 0x414F_A339)
        #expect(CRC32.checksum((0..<1024).map { UInt8($0 & 0xFF) }) == 0xB70B_4C26)
    }

    @Test func slicingMatchesTheBytewiseDefinition() {
        var random = SystemRandomNumberGenerator()
        for length in [0, 1, 7, 8, 9, 15, 16, 17, 100, 1000] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            #expect(CRC32.checksum(bytes) == ~crc, "length \(length)")
        }
    }
}

@Suite struct DurableQueueTests {
    @Test func appendedRecordsSurviveReopeningUntilAcknowledged() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        do {
            let queue = try DurableQueue(storage: .directory(directory.url))
            queue.appendNumbered(0..<1000)
            await queue.waitUntilPersisted()
            let metrics = queue.metrics
            #expect(metrics.appended == 1000 && metrics.persisted == 1000 && metrics.backlog == 1000)
            let first = await queue.read(maxRecords: 300, maxBytes: .max)
            #expect(first.count == 300)
            await queue.acknowledge(first)
            #expect(queue.metrics.backlog == 700 && queue.metrics.acknowledged == 300)
        }
        do {
            let reopened = try DurableQueue(storage: .directory(directory.url))
            let texts = await reopened.readAllText()
            #expect(texts == (300..<1000).map { "record-\($0)" })
            #expect(reopened.metrics.recovered == 700 && reopened.metrics.skippedBytes == 0)
            await reopened.acknowledge(await reopened.read(maxRecords: .max, maxBytes: .max))
            #expect(directory.segments.count <= 1)
        }
        let empty = try DurableQueue(storage: .directory(directory.url))
        #expect(await empty.readAllText().isEmpty)
    }

    @Test func readsAreBoundedByCountAndBytes() async throws {
        let queue = try DurableQueue(storage: .memory(limit: 1 << 20))
        queue.appendNumbered(0..<100)
        await queue.waitUntilPersisted()
        #expect(await queue.read(maxRecords: 10, maxBytes: .max).count == 10)
        // "record-0" … "record-9" are 8 bytes; "record-10" and on are 9.
        #expect(await queue.read(maxRecords: .max, maxBytes: 20).count == 2)
        #expect(await queue.read(maxRecords: .max, maxBytes: 1).count == 1, "at least one record")
    }

    @Test func newRecordsGoToANewSegmentAndAcknowledgedSegmentsAreDeleted() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let queue = try DurableQueue(
            storage: .directory(directory.url), configuration: .init(segmentSize: 4096, writeThreshold: 1024))
        for batch in 0..<20 {
            queue.appendNumbered(batch * 100..<(batch + 1) * 100)
            await queue.waitUntilPersisted()
        }
        #expect(directory.segments.count > 5)
        while true {
            let records = await queue.read(maxRecords: 250, maxBytes: .max)
            if records.isEmpty { break }
            await queue.acknowledge(records)
        }
        #expect(queue.metrics.acknowledged == 2000 && queue.metrics.backlog == 0)
        #expect(directory.segments.count <= 1)
    }

    @Test func aTornTailKeepsEveryIntactRecord() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        do {
            let queue = try DurableQueue(storage: .directory(directory.url))
            queue.appendNumbered(0..<100)
            await queue.waitUntilPersisted()
        }
        let segment = try #require(directory.segments.last)
        let handle = try FileHandle(forUpdating: segment)
        let size = try handle.seekToEnd()
        try handle.truncate(atOffset: size - 3)  // the last record loses its last bytes
        try handle.close()
        let reopened = try DurableQueue(storage: .directory(directory.url))
        #expect(await reopened.readAllText() == (0..<99).map { "record-\($0)" })
        let metrics = reopened.metrics
        #expect(metrics.recovered == 99 && metrics.skippedRegions == 1 && metrics.skippedBytes == 19 - 3)
    }

    @Test func aFlippedByteLosesOnlyItsRecord() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        do {
            let queue = try DurableQueue(storage: .directory(directory.url))
            queue.appendNumbered(0..<10)  // "record-0" … "record-9": 10 + 8 bytes each
            await queue.waitUntilPersisted()
        }
        for (offset, damaged) in [(18 * 4 + 12, "payload"), (18 * 6 + 3, "length"), (18 * 8 + 0, "marker")] {
            let segment = try #require(directory.segments.last)
            var bytes = try Data(contentsOf: segment)
            bytes[QueueFormat.SegmentHeader.size + offset] ^= 0x40
            try bytes.write(to: segment)
            _ = damaged
        }
        let reopened = try DurableQueue(storage: .directory(directory.url))
        #expect(await reopened.readAllText() == [0, 1, 2, 3, 5, 7, 9].map { "record-\($0)" })
        #expect(reopened.metrics.skippedRegions == 3 && reopened.metrics.skippedBytes == 3 * 18)
    }

    @Test func emptyGarbageAndDamagedFilesNeverStopRecovery() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        do {
            let queue = try DurableQueue(storage: .directory(directory.url))
            queue.appendNumbered(0..<5)
            await queue.waitUntilPersisted()
        }
        // A zero-length segment, a segment of noise, a header claiming 4 GB, a bad cursor.
        _ = FileManager.default.createFile(atPath: directory.url.appendingPathComponent("00000000000000f0.seg").path, contents: Data())
        var noise = SystemRandomNumberGenerator()
        let garbage = Data((0..<5000).map { _ in UInt8.random(in: 0...255, using: &noise) })
        _ = FileManager.default.createFile(atPath: directory.url.appendingPathComponent("00000000000000f1.seg").path, contents: garbage)
        _ = FileManager.default.createFile(
            atPath: directory.url.appendingPathComponent("00000000000000f2.seg").path,
            contents: Data([0xA5, 0x4E, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 1, 2, 3]))
        _ = FileManager.default.createFile(atPath: directory.url.appendingPathComponent("cursor").path, contents: Data([1, 2, 3]))
        let reopened = try DurableQueue(storage: .directory(directory.url))
        #expect(await reopened.readAllText() == (0..<5).map { "record-\($0)" })
        #expect(reopened.metrics.skippedBytes >= 5000 + 13)
        // It keeps working after recovery, behind the damaged files.
        reopened.appendNumbered(5..<8)
        await reopened.waitUntilPersisted()
        #expect(await reopened.readAllText() == (0..<8).map { "record-\($0)" })
    }

    @Test func theByteCapDropsTheOldestAndCountsThem() async throws {
        let queue = try DurableQueue(
            storage: .memory(limit: 16 << 10), configuration: .init(writeThreshold: 1024))
        for batch in 0..<50 {
            queue.appendNumbered(batch * 100..<(batch + 1) * 100)
            await queue.waitUntilPersisted()
        }
        let texts = await queue.readAllText()
        let metrics = queue.metrics
        #expect(metrics.storedBytes <= 16 << 10)
        #expect(metrics.dropped[.capacity, default: 0] + texts.count == 5000)
        #expect(texts.last == "record-4999")
        #expect(texts == (5000 - texts.count..<5000).map { "record-\($0)" }, "the newest survive, in order")
        #expect(metrics.backlog == texts.count)
    }

    @Test func oversizedRecordsAreRefusedAndCounted() async throws {
        let queue = try DurableQueue(storage: .memory(limit: 1 << 20), configuration: .init(maxRecordSize: 100))
        #expect(!queue.append([UInt8](repeating: 1, count: 101)))
        #expect(queue.append([UInt8](repeating: 1, count: 100)))
        #expect(queue.metrics.dropped[.tooLarge, default: 0] == 1)
    }

    @Test func purgeDeletesEverything() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        do {
            let queue = try DurableQueue(storage: .directory(directory.url))
            queue.appendNumbered(0..<10)
            await queue.waitUntilPersisted()
            queue.appendNumbered(10..<15)
            await queue.purge()
            #expect(await queue.readAllText().isEmpty)
            #expect(queue.metrics.dropped[.purged, default: 0] == 15)
        }
        #expect(try await DurableQueue(storage: .directory(directory.url)).readAllText().isEmpty)
    }
}
