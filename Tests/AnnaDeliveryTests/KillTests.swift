import Foundation
import Testing

@_spi(DurableQueue) @testable import Anna

/// Real processes, killed with SIGKILL at random moments, on one storage directory.
@Suite(.serialized) struct KillTests {
    /// Each trial starts a child that reports numbered events and prints how many are
    /// persisted, and kills it 0–200 ms after its start or after its first accepted
    /// event, while it recovers, writes or uploads.
    /// A last child finishes delivery. Every event a child reported as persisted must
    /// reach the collector; an event delivered twice must carry one message id.
    /// `ANNA_KILL_TRIALS=500 swift test --filter KillTests` runs a longer version.
    @Test func noAcceptedEventIsLostWhenProcessesAreKilled() async throws {
        let trials = Int(ProcessInfo.processInfo.environment["ANNA_KILL_TRIALS"] ?? "") ?? 50
        try await killAndDrain(mode: "report", trials: trials).stop()
    }

    /// The same with orders of three products each, nested objects with PII inside:
    /// nothing accepted is lost, and what arrives is the nested JSON, PII removed.
    @Test func noAcceptedOrderIsLostWhenProcessesAreKilled() async throws {
        let trials = Int(ProcessInfo.processInfo.environment["ANNA_KILL_TRIALS"] ?? "") ?? 20
        let collector = try await killAndDrain(mode: "report-orders", trials: trials)
        defer { collector.stop() }
        let bodies = try await collector.bodies()
        let batch = try #require(bodies.first.flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        let event = try #require((batch["batch"] as? [[String: Any]])?.first)
        let products = try #require((event["properties"] as? [String: Any])?["products"] as? [[String: Any]])
        #expect(products.count == 3)
        #expect(products.map { $0["productID"] as? String } == ["SKU-1", "SKU-2", "SKU-3"])
        #expect(products[1]["giftEmail"] == nil, "PII inside objects is removed for the HTTP provider")
        #expect(products[2]["price"] as? Double == 3)
    }

    /// Kills children reporting in `mode` at random moments, drains with a last one,
    /// and checks nothing accepted was lost; returns the collector, still running.
    private func killAndDrain(mode: String, trials: Int) async throws -> LoopbackCollector {
        let collector = try LoopbackCollector()
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        var accepted = 0
        var acceptedNumbers: [Range<Int>] = []
        var killedBeforeAnyPersisted = 0
        for trial in 0..<trials {
            let first = trial * 1_000_000
            // Every fifth trial the collector answers 503, so a backlog builds up for
            // the next process to recover and send.
            try await collector.control(["default": ["status": trial % 5 == 4 ? 503 : 200]])
            let child = try ChildProcess([mode, directory.url.path, collector.endpoint.absoluteString, String(first)])
            // The random moment: on odd trials from the start (often during recovery or
            // the first write), on even trials from the first accepted event (while
            // writing and uploading), however slowly the machine starts processes.
            if trial.isMultiple(of: 2) {
                _ = await eventually(within: 60) { child.lines.contains { $0.hasPrefix("persisted") } }
            }
            try await Task.sleep(for: .milliseconds(Int.random(in: 0...200)))
            child.kill()
            let persisted = child.lines.compactMap { line -> Int? in
                line.hasPrefix("persisted ") ? Int(line.dropFirst(10)) : nil
            }.max() ?? 0
            if persisted == 0 { killedBeforeAnyPersisted += 1 }
            accepted += persisted
            acceptedNumbers.append(first..<first + persisted)
        }
        try await collector.control(["default": ["status": 200]])
        let drain = try ChildProcess(["drain", directory.url.path, collector.endpoint.absoluteString])
        // The child fails by itself on a minute without a delivery; 600 s is for a loaded machine.
        #expect(await drain.wait(seconds: 600), "the last process delivers everything: \(drain.lines.suffix(3))")
        #expect(drain.lines.last?.hasPrefix("drained") == true, "\(drain.lines)")
        #expect(drain.lines.last?.hasSuffix(" dropped 0") == true, "\(drain.lines)")

        let delivered = try await collector.accepted()
        var idsByNumber: [Int: Set<String>] = [:]
        for event in delivered.events { idsByNumber[event.number ?? -1, default: []].insert(event.messageID) }
        let lost = acceptedNumbers.reduce(0) { lost, range in lost + range.count { idsByNumber[$0] == nil } }
        let duplicated = delivered.events.count - idsByNumber.count
        let conflicting = idsByNumber.values.count { $0.count > 1 }
        print("""
            kill test (\(mode)): \(trials) trials, \(accepted) events accepted, \(idsByNumber.count) distinct delivered, \
            \(lost) lost, \(duplicated) duplicates (\(conflicting) with a different message id), \
            \(killedBeforeAnyPersisted) kills before the first sync; \(drain.lines.last ?? "")
            """)
        #expect(accepted > trials * 10, "the children accepted events before they were killed")
        #expect(killedBeforeAnyPersisted <= trials / 2 + trials / 10, "most kills hit a process at work")
        #expect(lost == 0)
        #expect(conflicting == 0)
        #expect(delivered.invalid.isEmpty)
        return collector
    }

    /// RLIMIT_FSIZE makes the child's writes fail with EFBIG past 64 KB, as a full disk
    /// does: the queue refuses what it cannot write, counts it, keeps what it wrote,
    /// and leaves no torn record behind.
    @Test func aDiskThatFillsUpRefusesNewEventsAndKeepsTheRest() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let child = try ChildProcess(["fill", directory.url.path, String(64 << 10)])
        #expect(await child.wait(seconds: 60))
        let line = try #require(child.lines.last { $0.hasPrefix("persisted") })
        let fields = line.split(separator: " ")
        let persisted = try #require(Int(fields[1]))
        let failed = try #require(Int(fields[3]))
        #expect(persisted > 1000 && failed > 0 && persisted + failed == 4000, "\(line)")
        #expect(line.contains("File too large") || line.contains("errno 27"), "\(line)")
        let reopened = try DurableQueue(storage: .directory(directory.url))
        // Every persisted record, in order; a smaller write may fit after a failed one.
        let numbers = await reopened.readAllText().compactMap { Int($0.dropFirst("record-".count)) }
        #expect(numbers.count == persisted && numbers == numbers.sorted() && Set(numbers).count == persisted)
        #expect(numbers.first == 0 && (numbers.last ?? 0) < 4000)
        #expect(reopened.metrics.skippedBytes == 0)
    }
}
