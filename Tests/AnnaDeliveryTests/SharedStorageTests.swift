import Foundation
import Testing

@_spi(DurableQueue) @testable import Anna

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An app and its extensions on one App Group folder (``DeliveryStorage/shared(_:)``),
/// played by real processes: each writes its own queue, one uploads at a time, and
/// the queues of processes that ended are adopted by a live one.
@Suite(.serialized) struct SharedStorageTests {
    /// The largest "persisted <n>" a child printed.
    static func persisted(_ child: ChildProcess) -> Int {
        child.lines.compactMap { $0.hasPrefix("persisted ") ? Int($0.dropFirst(10)) : nil }.max() ?? 0
    }

    /// The child's last "metrics …" line, as numbers by name.
    static func metrics(_ child: ChildProcess) -> [String: Int] {
        guard let line = child.lines.last(where: { $0.hasPrefix("metrics ") || $0.hasPrefix("resumed ") }) else { return [:] }
        let words = line.split(separator: " ").dropFirst()
        var values: [String: Int] = [:]
        for index in stride(from: words.startIndex, to: words.endIndex - 1, by: 2) {
            values[String(words[index])] = Int(words[index + 1])
        }
        return values
    }

    /// Numbers delivered, with the message ids each arrived with.
    static func delivered(_ collector: LoopbackCollector) async throws -> [Int: Set<String>] {
        var ids: [Int: Set<String>] = [:]
        for event in try await collector.accepted().events { ids[event.number ?? -1, default: []].insert(event.messageID) }
        return ids
    }

    /// Whether a `flock` on `path` can be taken now (and gives it back).
    static func isFree(_ path: String) -> Bool {
        let descriptor = open(path, O_RDWR)
        guard descriptor >= 0 else { return true }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return false }
        flock(descriptor, LOCK_UN)
        return true
    }

    /// Files of `folder` a process has open, read from `/proc/<pid>/fd`.
    static func openFiles(of process: Process, under folder: URL) -> [String] {
        let fds = "/proc/\(process.processIdentifier)/fd"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: fds)) ?? []
        return entries.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "\(fds)/\($0)") }
            .filter { $0.hasPrefix(folder.resolvingSymlinksInPath().path) || $0.hasPrefix(folder.path) }
    }

    /// Four processes write 1,500 events each at once into one folder: each has its own
    /// queue, the collector never sees two requests at a time, and it receives every
    /// event exactly once.
    @Test func fourConcurrentProcessesLoseNothing() async throws {
        let collector = try LoopbackCollector()
        defer { collector.stop() }
        // A short stall per request: overlapping uploads would show in maxConcurrent.
        try await collector.control(["default": ["status": 200, "stall": 0.01]])
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let count = 1500
        let children = try (0..<4).map { index in
            try ChildProcess(["shared", folder.url.path, collector.endpoint.absoluteString, String(index * 1_000_000), String(count)])
        }
        defer { for child in children { child.kill() } }
        let all = Set((0..<4).flatMap { index in (0..<count).map { index * 1_000_000 + $0 } })
        let complete = await eventually(within: 120) {
            ((try? await Self.delivered(collector)) ?? [:]).keys.count >= all.count
        }
        #expect(complete, "\(children.map { $0.lines.suffix(2) })")
        // Let every process settle: nothing more may arrive.
        try await Task.sleep(for: .milliseconds(300))
        let accepted = try await collector.accepted()
        let ids = try await Self.delivered(collector)
        #expect(Set(ids.keys) == all, "missing \(all.subtracting(ids.keys).count)")
        #expect(accepted.events.count == all.count, "no event delivered twice")
        #expect(ids.values.allSatisfy { $0.count == 1 })
        #expect(accepted.maxConcurrent == 1, "one process uploads at a time")
        #expect(accepted.invalid.isEmpty)
        let queues = try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("queues").path)
        #expect(queues.sorted() == (1...4).map { "AnnaDeliveryChild.\($0)" }, "each process its own queue")
        print("shared folder: 4 processes, \(accepted.events.count) events in \(accepted.requests) requests, maxConcurrent \(accepted.maxConcurrent)")
    }

    /// A process is killed with SIGKILL while the collector fails, its events on disk;
    /// a process that was already running adopts its queue and delivers them, with
    /// the message ids they were stored with.
    @Test func aKilledProcessQueueIsAdoptedByALiveOne() async throws {
        let collector = try LoopbackCollector()
        defer { collector.stop() }
        try await collector.control(["default": ["status": 500]])
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let endpoint = collector.endpoint.absoluteString
        let victim = try ChildProcess(["shared", folder.url.path, endpoint, "0", "0"])
        defer { victim.kill() }
        #expect(await eventually(within: 60) { Self.persisted(victim) >= 500 })
        let survivor = try ChildProcess(["shared", folder.url.path, endpoint, "5000000", "100"])
        defer { survivor.kill() }
        #expect(await eventually(within: 60) { Self.persisted(survivor) >= 100 })
        // Mid-stream: the victim is still reporting and retrying.
        victim.kill()
        let accepted = Self.persisted(victim)
        let failedRequests = try await collector.accepted().requests
        #expect(failedRequests > 0)
        try await collector.control(["default": ["status": 200]])

        let expected = Set(0..<accepted).union(5_000_000..<5_000_100)
        let complete = await eventually(within: 120) {
            let ids = (try? await Self.delivered(collector)) ?? [:]
            return expected.isSubset(of: ids.keys)
        }
        #expect(complete, "\(survivor.lines.suffix(3))")
        let ids = try await Self.delivered(collector)
        #expect(ids.values.allSatisfy { $0.count == 1 }, "a redelivered event keeps its message id")
        #expect(await eventually(within: 10) { (Self.metrics(survivor)["adopted"] ?? 0) >= accepted })
        #expect(try await collector.accepted().invalid.isEmpty)
        print("adoption: \(accepted) events accepted by the killed process, \(Self.metrics(survivor)) in the survivor")
    }

    /// A suspended process holds no lock and no file of the folder. Meanwhile another
    /// process takes its queue (and delivers what it left); on resume the first one
    /// claims another queue and delivers what it received while suspended.
    @Test func suspensionReleasesEverythingAndResumeCopesWithATakenQueue() async throws {
        let collector = try LoopbackCollector()
        defer { collector.stop() }
        try await collector.control(["default": ["status": 500]])
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let endpoint = collector.endpoint.absoluteString
        let app = try ChildProcess(["suspend", folder.url.path, endpoint, "0"])
        defer { app.kill() }
        #expect(await eventually(within: 60) { app.lines.contains("suspended") }, "\(app.lines)")
        let ownQueue = folder.url.appendingPathComponent("queues/AnnaDeliveryChild.1")
        #expect(Self.isFree(ownQueue.appendingPathComponent("lock").path), "the queue's lock is released")
        #expect(Self.isFree(folder.url.appendingPathComponent("upload.lock").path), "the upload lock is released")
        #if os(Linux)
        #expect(Self.openFiles(of: app.process, under: folder.url).isEmpty, "\(Self.openFiles(of: app.process, under: folder.url))")
        #endif

        // An extension starts: it claims the free queue, the app's, and delivers the app's 100 events with its own.
        try await collector.control(["default": ["status": 200]])
        let widget = try ChildProcess(["shared", folder.url.path, endpoint, "1000000", "20"])
        defer { widget.kill() }
        let first = Set(0..<100).union(1_000_000..<1_000_020)
        #expect(await eventually(within: 60) { first.isSubset(of: ((try? await Self.delivered(collector)) ?? [:]).keys) })
        #expect(await eventually(within: 10) { Self.metrics(widget)["recovered"] == 100 }, "\(widget.lines.suffix(2))")

        _ = FileManager.default.createFile(atPath: folder.url.appendingPathComponent("resume").path, contents: nil)
        #expect(await eventually(within: 60) { app.lines.contains { $0.hasPrefix("resumed") } }, "\(app.lines)")
        let all = first.union(100..<150)
        #expect(await eventually(within: 30) { all == Set(((try? await Self.delivered(collector)) ?? [:]).keys) })
        let accepted = try await collector.accepted()
        #expect(accepted.events.count == all.count, "no duplicates")
        #expect(accepted.maxConcurrent == 1 && accepted.invalid.isEmpty)
        let queues = try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("queues").path)
        #expect(Set(queues) == ["AnnaDeliveryChild.1", "AnnaDeliveryChild.2"], "the app moved to a queue of its own")
    }

    /// Shutting down while suspended returns, sends nothing, and leaves every event,
    /// those received while suspended too, for the next start; purging while
    /// suspended returns too.
    @Test func shutdownWhileSuspendedReturnsAndKeepsTheEvents() async throws {
        let collector = try LoopbackCollector()
        defer { collector.stop() }
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let provider = try DurableProvider(
            endpoint: collector.endpoint, writeKey: "test-key", storage: .shared(folder.url), configuration: .test())
        try await provider.receive(envelopes(0..<10))
        await provider.waitUntilPersisted()
        await provider.suspend()
        await provider.suspend()  // a second call does nothing
        try await provider.receive(envelopes(10..<15))
        await provider.shutdown()
        #expect(try await collector.accepted().requests == 0, "nothing is sent while suspended")
        let next = try DurableProvider(
            endpoint: collector.endpoint, writeKey: "test-key", storage: .shared(folder.url), configuration: .test())
        try await next.flush()
        #expect(Set(try await Self.delivered(collector).keys) == Set(0..<15), "every event waited for the next start")
        await next.purge()
        await next.suspend()
        await next.purge()
        await next.resume()
        try await next.receive(envelopes(20..<22))
        try await next.flush()
        #expect(Set(try await Self.delivered(collector).keys) == Set(0..<15).union(20..<22))
        await next.shutdown()
    }

    /// In one process: a second provider on the shared folder takes a queue of its own;
    /// a queue left with events is adopted on flush; opting out purges what this
    /// process holds and the queues of ended processes.
    @Test func adoptionOnFlushAndPurgeInOneProcess() async throws {
        let collector = try LoopbackCollector()
        defer { collector.stop() }
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        // A queue an ended process left: events on disk, nobody holding it.
        let leftDirectory = folder.url.appendingPathComponent("queues/Extension.1")
        do {
            let left = try DurableProvider(
                endpoint: collector.endpoint, writeKey: "test-key", storage: .directory(leftDirectory),
                configuration: .test())
            try await left.receive(envelopes(0..<30))
            await left.waitUntilPersisted()
            await left.suspend()
        }
        let provider = try DurableProvider(
            endpoint: collector.endpoint, writeKey: "test-key", storage: .shared(folder.url), configuration: .test())
        try await provider.receive(envelopes(100..<110))
        try await provider.flush()
        let ids = try await Self.delivered(collector)
        #expect(Set(ids.keys) == Set(0..<30).union(100..<110))
        #expect(provider.metrics.adopted == 30 && provider.metrics.delivered == 40)
        let second = try DurableProvider(
            endpoint: collector.endpoint, writeKey: "test-key", storage: .shared(folder.url), configuration: .test())
        try await second.flush()
        #expect(second.metrics.adopted == 0 && second.metrics.delivered == 0, "nothing was left to adopt")
        let queues = try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("queues").path)
        #expect(queues.count == 3, "two providers, two queues, and the ended one's: \(queues)")

        // Opt-out: what this process holds and what an ended process left go; nothing is sent.
        try await collector.control(["default": ["status": 500]])
        try await provider.receive(envelopes(200..<210))
        await provider.waitUntilPersisted()
        let leftAgain = try DurableProvider(
            endpoint: collector.endpoint, writeKey: "test-key", storage: .directory(leftDirectory), configuration: .test())
        try await leftAgain.receive(envelopes(300..<310))
        await leftAgain.waitUntilPersisted()
        await leftAgain.shutdown()
        await provider.purge()
        try await collector.control(["default": ["status": 200]])
        try await provider.flush()
        try await second.flush()
        #expect(Set(try await Self.delivered(collector).keys) == Set(0..<30).union(100..<110))
        #expect(provider.metrics.dropped[.purged, default: 0] == 10 && provider.metrics.backlog == 0)
        let orphan = try DurableQueue(storage: .directory(leftDirectory))
        #expect(await orphan.readAllText().isEmpty, "the ended process's queue was purged")
        await provider.shutdown()
        await second.shutdown()
    }
}
