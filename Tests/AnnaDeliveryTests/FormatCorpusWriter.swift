import Foundation
import Testing

@_spi(DurableQueue) @testable import Anna

/// Writes a frozen corpus (`Corpus/<name>/`): what this version of Anna leaves on disk.
/// Runs only when `ANNA_WRITE_CORPUS` names a folder that does not exist yet, so a
/// corpus is never regenerated: a new format adds a new corpus beside the old ones
/// (`ANNA_WRITE_CORPUS=format-2 swift test --filter FormatCorpusWriter`).
///
/// The corpus:
/// - `app/identity.json`: a user who identified as `corpus-user` and granted marketing;
/// - `app/events/`: that app's delivery queue, with the collector down: a backlog of
///   records in several small segments (4 KiB), the acknowledgement cursor a few
///   records into the oldest segment left, and the age stamps;
/// - `app/expected.json`: the message ids and numbers of the records left in it, in order;
/// - `opted-out/identity.json`: a user who granted marketing and then opted out.
@Suite struct FormatCorpusWriter {
    static let name = ProcessInfo.processInfo.environment["ANNA_WRITE_CORPUS"]

    static var folder: URL? {
        guard let name, !name.isEmpty else { return nil }
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Corpus", isDirectory: true).appendingPathComponent(name, isDirectory: true)
        return FileManager.default.fileExists(atPath: url.path) ? nil : url
    }

    @Test(.enabled(if: folder != nil, "ANNA_WRITE_CORPUS names a corpus folder that does not exist yet"))
    func writeCorpus() async throws {
        let corpus = try #require(Self.folder)
        let app = corpus.appendingPathComponent("app", isDirectory: true)
        let events = app.appendingPathComponent("events", isDirectory: true)
        let optedOut = corpus.appendingPathComponent("opted-out", isDirectory: true)
        try FileManager.default.createDirectory(at: events, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: optedOut, withIntermediateDirectories: true)
        let queueConfiguration = DeliveryStorage.Configuration(segmentSize: 4096)

        // The collector is down: every record stays in the queue.
        let down = try LoopbackCollector()
        let port = down.port
        down.stop()
        let provider = try DurableProvider(
            endpoint: URL(string: "http://127.0.0.1:\(port)/v1/batch")!, writeKey: "test-key",
            storage: .directory(events),
            configuration: .init(
                flushAt: 1000, flushInterval: .seconds(3600), initialRetryDelay: .seconds(3600),
                queue: queueConfiguration))
        let analytics = AnalyticsService(providers: [provider], configuration: .init(storageDirectory: app))
        analytics.grant(.marketing)
        analytics.identify(userID: "corpus-user")
        for number in 0..<40 { analytics.report(.numbered(number)) }
        await analytics.flush()
        await analytics.shutdown()

        // A few records of the second segment acknowledged: the first segment goes,
        // the cursor stays partway through the second.
        var remaining: [[String: Any]] = []
        do {
            let queue = try DurableQueue(storage: .directory(events), configuration: queueConfiguration)
            let records = await queue.read(maxRecords: .max, maxBytes: .max)
            let firstSegment = try #require(records.first).segment
            let acknowledged = records.firstIndex { $0.segment != firstSegment }.map { $0 + 3 } ?? 0
            #expect(acknowledged > 3 && acknowledged < records.count)
            await queue.acknowledge(Array(records[..<acknowledged]))
            for record in records[acknowledged...] {
                let json = try #require(try JSONSerialization.jsonObject(with: Data(record.payload)) as? [String: Any])
                let properties = json["properties"] as? [String: Any]
                remaining.append([
                    "messageId": json["messageId"] as? String ?? "", "type": json["type"] as? String ?? "",
                    "n": properties?["n"] as? Int ?? -1,
                ])
            }
        }
        let expected = try JSONSerialization.data(withJSONObject: remaining, options: [.prettyPrinted, .sortedKeys])
        try expected.write(to: app.appendingPathComponent("expected.json"))

        let second = AnalyticsService(providers: [], configuration: .init(storageDirectory: optedOut))
        second.grant(.marketing)
        second.identify(userID: "opted-out-user")
        await second.optOut()
        await second.shutdown()
        print("corpus written to \(corpus.path): \(remaining.count) records left")
    }
}
