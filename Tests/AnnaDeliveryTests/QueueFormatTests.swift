import Foundation
import Testing

@_spi(DurableQueue) @testable import Anna

/// Issue 52: every queue file names its format; a reader reads every earlier format
/// and leaves a later one untouched.
@Suite(.serialized) struct QueueFormatTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Corpus", isDirectory: true)

    /// Every frozen corpus (`Corpus/format-<n>`): each is opened by this version.
    static let corpora: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? [])
        .filter { $0.hasPrefix("format-") }.sorted()

    /// A copy of `Corpus/<path>` in a fresh temporary directory.
    static func copy(_ path: String, into directory: TemporaryDirectory) throws -> URL {
        let target = directory.url.appendingPathComponent(URL(fileURLWithPath: path).lastPathComponent, isDirectory: true)
        try FileManager.default.copyItem(at: corpus.appendingPathComponent(path, isDirectory: true), to: target)
        return target
    }

    static func provider(
        _ events: URL, _ collector: LoopbackCollector, errors: LockedState<[DeliveryError]>? = nil
    ) throws -> DurableProvider {
        try DurableProvider(
            endpoint: collector.endpoint, writeKey: "test-key", storage: .directory(events),
            configuration: .init(
                flushAt: 10, flushInterval: .milliseconds(50), initialRetryDelay: .milliseconds(20),
                maxRetryDelay: .milliseconds(200), queue: .init(segmentSize: 4096),
                errorHandler: { error in errors?.withLock { $0.append(error) } }))
    }

    /// Every regular file of `folder` (not its subfolders), by name, with its bytes.
    static func files(_ folder: URL) -> [String: Data] {
        var files: [String: Data] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
            var isDirectory: ObjCBool = false
            let url = folder.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            files[name] = FileManager.default.contents(atPath: url.path)
        }
        return files
    }

    // MARK: The frozen corpora

    @Test func theCorporaAreThere() {
        #expect(Self.corpora.starts(with: ["format-0", "format-1"]))
    }

    /// Each frozen corpus (format 0: written by Anna before formats were numbered)
    /// opened by this version: exactly its 29 unacknowledged records are delivered,
    /// each once, in order, under their own message ids; the identity and consent are kept.
    @Test(arguments: corpora) func aFrozenCorpusIsDeliveredWholeAndItsIdentityKept(_ name: String) async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let app = try Self.copy("\(name)/app", into: directory)
        let expected = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: app.appendingPathComponent("expected.json"))) as? [[String: Any]])
        let expectedIDs = expected.map { $0["messageId"] as? String ?? "" }
        #expect(expectedIDs.count == 29)
        let stored = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: app.appendingPathComponent("identity.json"))) as? [String: Any])
        let collector = try LoopbackCollector()
        defer { collector.stop() }

        let provider = try Self.provider(app.appendingPathComponent("events"), collector)
        let analytics = AnalyticsService(providers: [provider], configuration: .init(storageDirectory: app))
        let delivered = await eventually(within: 30) { provider.metrics.delivered >= expectedIDs.count }
        #expect(delivered)
        #expect(provider.metrics.recovered == expectedIDs.count)
        let identity = await analytics.identity
        #expect(identity.anonymousID == stored["anonymousID"] as? String)
        #expect(identity.userID == "corpus-user")
        #expect(identity.grantedConsent.contains(.marketing) && !analytics.isOptedOut)
        // New events after the old ones, in the queue's own format.
        analytics.report(.numbered(1000))
        await analytics.flush()
        #expect(await eventually(within: 30) { provider.metrics.delivered == expectedIDs.count + 1 })
        await analytics.shutdown()

        let accepted = try await collector.accepted()
        let fromCorpus = accepted.events.filter { expectedIDs.contains($0.messageID) }
        #expect(fromCorpus.map(\.messageID) == expectedIDs, "every record of the corpus, once, in order")
        #expect(fromCorpus.map(\.number) == expected.map { $0["n"] as? Int })
        #expect(accepted.events.count == expectedIDs.count + 1 && accepted.events.last?.number == 1000)
        #expect(accepted.invalid.isEmpty)
        // Nothing is sent again at the next launch.
        let reopened = try DurableQueue(storage: .directory(app.appendingPathComponent("events")))
        #expect(await reopened.read(maxRecords: .max, maxBytes: .max).isEmpty)
    }

    /// Each frozen corpus's opted-out identity: nothing reaches the collector, and the
    /// identity is kept.
    @Test(arguments: corpora) func aFrozenCorpusOptOutHolds(_ name: String) async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let folder = try Self.copy("\(name)/opted-out", into: directory)
        let file = folder.appendingPathComponent("identity.json")
        let stored = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        let collector = try LoopbackCollector()
        defer { collector.stop() }
        let provider = try Self.provider(folder.appendingPathComponent("events"), collector)
        let analytics = AnalyticsService(providers: [provider], configuration: .init(storageDirectory: folder))
        for number in 0..<5 { analytics.report(.numbered(number)) }
        await analytics.flush()
        let identity = await analytics.identity
        #expect(analytics.isOptedOut)
        #expect(identity.anonymousID == stored["anonymousID"] as? String && identity.userID == "opted-out-user")
        await analytics.shutdown()
        #expect(try await collector.accepted().events.isEmpty)
        #expect(provider.metrics.persisted == 0)
        let after = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        #expect(after["isOptedOut"] as? Bool == true && after["anonymousID"] as? String == stored["anonymousID"] as? String)
    }

    // MARK: A later format

    /// A state file of format `version`: the envelope every format keeps.
    static func stateFile(version: UInt32, body: [UInt8]) -> Data {
        var bytes: [UInt8] = []
        withUnsafeBytes(of: version.littleEndian) { bytes.append(contentsOf: $0) }
        bytes += body
        withUnsafeBytes(of: CRC32.checksum(bytes).littleEndian) { bytes.append(contentsOf: $0) }
        return Data(bytes)
    }

    /// A segment of three records that a collector would accept, with the header of
    /// format `version` (none: format 0).
    static func segment(version: UInt32?) -> Data {
        var bytes = version.map { QueueFormat.SegmentHeader.encoded(version: $0) } ?? []
        for number in 0..<3 {
            let json = #"{"type":"track","event":"FromALaterFormat","messageId":"\#(UUID().uuidString.lowercased())","#
                + #""timestamp":"2026-12-01T00:00:00.000Z","anonymousId":"later","properties":{"n":\#(-1 - number)}}"#
            Array(json.utf8).withUnsafeBytes { RecordFraming.append($0, to: &bytes) }
        }
        return Data(bytes)
    }

    /// A folder one of whose files (or all) declares format 2: nothing in it is
    /// uploaded, deleted or changed; the app's own events are kept (in `format-1/`) and
    /// delivered, at this launch and the next; the error handler hears once per launch,
    /// with both formats named.
    @Test(arguments: ["segment", "cursor", "stamps", "all"])
    func aFolderOfALaterFormatIsLeftAsItIs(_ newer: String) async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let events = directory.url.appendingPathComponent("events", isDirectory: true)
        try FileManager.default.createDirectory(at: events, withIntermediateDirectories: true)
        let laterSegment = newer == "segment" || newer == "all"
        try Self.segment(version: laterSegment ? 2 : nil).write(to: events.appendingPathComponent("0000000000000001.seg"))
        try Self.segment(version: laterSegment ? 2 : nil).write(to: events.appendingPathComponent("0000000000000002.seg"))
        if newer == "cursor" || newer == "all" {
            // Past the first segment, in format 2's terms: a reader of format 1 that took
            // it for its own would delete that segment.
            try Self.stateFile(version: 2, body: Array(repeating: 2, count: 20)).write(to: events.appendingPathComponent("cursor"))
        }
        if newer == "stamps" || newer == "all" {
            try Self.stateFile(version: 2, body: Array(repeating: 7, count: 40)).write(to: events.appendingPathComponent("stamps"))
        }
        // A temporary file of the later version's: not this version's to remove.
        try Data([1, 2, 3]).write(to: events.appendingPathComponent("stamps.tmp"))
        try Data().write(to: events.appendingPathComponent("lock"))
        let before = Self.files(events)
        let collector = try LoopbackCollector()
        defer { collector.stop() }

        for launch in 0..<2 {
            let errors = LockedState<[DeliveryError]>([])
            let provider = try Self.provider(events, collector, errors: errors)
            let analytics = AnalyticsService(providers: [provider])
            for number in launch * 10..<launch * 10 + 10 { analytics.report(.numbered(number)) }
            await analytics.flush()
            #expect(await eventually(within: 30) { provider.metrics.delivered == 10 }, "launch \(launch)")
            await analytics.shutdown()
            #expect(provider.metrics.recovered == 0, "launch \(launch): nothing of the later format is read")

            let reports = errors.withLock { $0 }.compactMap(\.storageError).filter { $0.newerFormat != nil }
            #expect(reports.count == 1, "launch \(launch): reported once")
            let report = try #require(reports.first)
            #expect(report.newerFormat?.found == 2 && report.newerFormat?.supported == 1)
            #expect("\(report)".contains("queue format 2") && "\(report)".contains("formats 0 to 1"))
            #expect("\(report)".contains("format-1"))
            #expect(Self.files(events) == before, "launch \(launch): the later version's files are untouched")
        }
        let accepted = try await collector.accepted()
        #expect(accepted.events.map(\.number) == Array(0..<20).map { Optional($0) })
        #expect(!accepted.events.contains { $0.name == "FromALaterFormat" })
        #expect(FileManager.default.fileExists(atPath: events.appendingPathComponent("format-1").path))
    }

    /// Defect: a segment of a later format that could not be read when the queue
    /// opened (a device not yet unlocked) escaped the check, and once readable its
    /// records were read as this format's. Now it is checked when read: nothing of the
    /// folder is read, and the queue moves to `format-1/` then.
    @Test func aLaterSegmentUnreadableAtOpenIsCheckedWhenRead() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let segment = directory.url.appendingPathComponent("0000000000000001.seg")
        try Self.segment(version: 2).write(to: segment)
        let before = try Data(contentsOf: segment)
        let store = FaultyStore(directory: directory.url)
        store.set { $0.unreadable = [1] }
        let log = ErrorLog()
        let queue = try DurableQueue(store: store, configuration: .init(), errorHandler: log.handler)
        #expect(await queue.read(maxRecords: .max, maxBytes: .max).isEmpty)
        store.set { $0.unreadable = [] }
        #expect(await queue.read(maxRecords: .max, maxBytes: .max).isEmpty, "nothing of the later format is read")
        queue.appendNumbered(0..<3)
        await queue.waitUntilPersisted()
        #expect(await queue.readAllText() == numbered(0..<3))
        #expect(try Data(contentsOf: segment) == before)
        #expect(log.all.count { $0.newerFormat != nil } == 1)
        #expect(FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("format-1").path))
    }

    /// Defect: records read before the queue released its lock, acknowledged after a
    /// later version took the folder meanwhile, moved this version's cursor in
    /// `format-1/` to a position of the other folder. They are not acknowledged there.
    @Test func recordsReadBeforeTheMoveAreNeverAcknowledgedInTheFormatFolder() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let queue = try DurableQueue(storage: .directory(directory.url))
        queue.appendNumbered(0..<3)
        await queue.waitUntilPersisted()
        let records = await queue.read(maxRecords: .max, maxBytes: .max)
        #expect(records.count == 3)
        await queue.releaseLock()
        // A later version takes the folder meanwhile: its stamps say format 2.
        try Self.stateFile(version: 2, body: Array(repeating: 7, count: 40))
            .write(to: directory.url.appendingPathComponent("stamps"))
        try queue.reacquireLock()
        #expect(await queue.acknowledge(records) == 0)
        let folder = directory.url.appendingPathComponent("format-1")
        #expect(FileManager.default.fileExists(atPath: folder.path))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("cursor").path))
        #expect(directory.segments.count == 1, "the later version's folder keeps its segment")
    }

    // MARK: Temporary files

    /// Defect: a crash between writing `cursor.tmp` or `stamps.tmp` and renaming it
    /// left the file for good; the next open removes them, and keeps the records.
    @Test func temporaryFilesOfAnInterruptedWriteAreRemovedAtOpen() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        do {
            let queue = try DurableQueue(storage: .directory(directory.url))
            queue.appendNumbered(0..<5)
            await queue.waitUntilPersisted()
        }
        for name in ["cursor.tmp", "stamps.tmp"] {
            try Data([9, 9, 9]).write(to: directory.url.appendingPathComponent(name))
        }
        let queue = try DurableQueue(storage: .directory(directory.url))
        #expect(await queue.readAllText() == (0..<5).map { "record-\($0)" })
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.hasSuffix(".tmp") }
        #expect(left.isEmpty, "left: \(left)")
    }

    // MARK: The formats

    /// Format 1 writes a header and a 24-byte cursor; format 0's cursor is still read;
    /// a later cursor is never taken for one; and a format-0 reader (Anna before this
    /// change, which scans a segment from its first byte) still finds every record of
    /// a format-1 segment, skipping only the header.
    @Test func formatOneAndFormatZeroAreBothRead() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        do {
            let queue = try DurableQueue(storage: .directory(directory.url))
            queue.appendNumbered(0..<5)
            await queue.waitUntilPersisted()
            let records = await queue.read(maxRecords: 2, maxBytes: .max)
            await queue.acknowledge(records)
        }
        let segment = try [UInt8](Data(contentsOf: try #require(directory.segments.first)))
        #expect(QueueFormat.SegmentHeader.version(of: segment) == 1)
        let scan = segment.withUnsafeBytes { RecordFraming.scan($0, maxPayload: 1 << 20) }
        #expect(scan.records.count == 5 && scan.skippedBytes == QueueFormat.SegmentHeader.size)
        let cursor = try [UInt8](Data(contentsOf: directory.url.appendingPathComponent("cursor")))
        #expect(cursor.count == 24 && QueueFormat.stateVersion(of: cursor) == 1)
        let decoded = try #require(DurableQueue.Writer.decode(cursor))
        #expect(decoded.offset == QueueFormat.SegmentHeader.size + 2 * 18)

        // Format 0's cursor, as the corpus holds it.
        let old = try [UInt8](Data(contentsOf: Self.corpus.appendingPathComponent("format-0/app/events/cursor")))
        #expect(DurableQueue.Writer.decode(old) == DurableQueue.Writer.Cursor(segment: 2, offset: 1484))
        #expect(DurableQueue.Writer.decode([UInt8](Self.stateFile(version: 2, body: Array(repeating: 0, count: 16)))) == nil)
        let header = QueueFormat.SegmentHeader.encoded(version: 7)
        #expect(QueueFormat.SegmentHeader.version(of: header) == 7)
        #expect(QueueFormat.SegmentHeader.version(of: header.dropLast()) == 0, "a torn header is format 0")

        let reopened = try DurableQueue(storage: .directory(directory.url))
        #expect(await reopened.readAllText() == (2..<5).map { "record-\($0)" })
    }
}
