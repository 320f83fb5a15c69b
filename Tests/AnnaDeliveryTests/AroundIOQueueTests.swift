import Foundation
import Testing

@_spi(DurableQueue) @testable import Anna

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A queue under ``DeliveryStorage/LockPolicy/aroundIO`` (an app extension's) in one
/// process, on real files: idle, it holds no lock and no descriptor; another queue may
/// take its records meanwhile, and it goes on from what the folder holds then.
@Suite(.serialized) struct AroundIOQueueTests {
    static let aroundIO = DurableQueue.Configuration(syncInterval: .milliseconds(5), lockPolicy: .aroundIO)

    /// Files of `folder` this process has open.
    static func openFiles(under folder: URL) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return entries.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)") }
            .filter { $0.hasPrefix(folder.path) || $0.hasPrefix(folder.resolvingSymlinksInPath().path) }
    }

    @Test func anIdleQueueHoldsNoLockAndNoFile() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let queue = try DurableQueue(storage: .directory(directory.url), configuration: Self.aroundIO)
        queue.appendNumbered(0..<10)
        await queue.waitUntilPersisted()
        _ = await queue.read(maxRecords: 1, maxBytes: 1 << 20)  // the read's operation ends like the write's
        #expect(SharedStorageTests.isFree(directory.url.appendingPathComponent("lock").path))
        #if os(Linux)
        #expect(Self.openFiles(under: directory.url).isEmpty, "\(Self.openFiles(under: directory.url))")
        #endif
        // An app's queue takes the directory while the extension's is idle: that works now.
        do {
            let other = try DurableQueue(storage: .directory(directory.url))
            #expect(await other.readAllText() == (0..<10).map { "record-\($0)" })
        }
        queue.appendNumbered(10..<12)
        await queue.waitUntilPersisted()
        #expect(await queue.readAllText() == (0..<12).map { "record-\($0)" })
        #expect(queue.metrics.persisted == 12)
    }

    /// Another queue acknowledges (adopts) some records and deletes a segment while the
    /// queue is idle; the queue sees it when it takes the lock back: nothing it
    /// acknowledged comes back, nothing new is lost, and acknowledging records the other
    /// one took already counts nothing twice.
    @Test func changesMadeWhileIdleAreRecovered() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        var configuration = Self.aroundIO
        configuration.segmentSize = 4096
        let queue = try DurableQueue(storage: .directory(directory.url), configuration: configuration)
        for batch in 0..<4 {
            queue.appendNumbered(batch * 100..<(batch + 1) * 100)
            await queue.waitUntilPersisted()
        }
        let stale = await queue.read(maxRecords: 50, maxBytes: 1 << 20)
        do {
            let adopter = try DurableQueue(storage: .directory(directory.url))
            let taken = await adopter.read(maxRecords: 250, maxBytes: 1 << 20)
            #expect(await adopter.acknowledge(taken) == 250)
        }
        queue.appendNumbered(400..<410)
        await queue.waitUntilPersisted()
        #expect(await queue.acknowledge(stale) == 0, "the adopter acknowledged them already")
        let left = await queue.readAllText()
        #expect(left == (250..<410).map { "record-\($0)" })
        #expect(queue.metrics.backlog == 160)
        #expect(queue.metrics.skippedBytes == 0)
    }

    /// With no other queue to move to (a plain directory), a conflict that lasts fails the
    /// write: the records are counted and the conflict reported, never silently lost.
    @Test func aLastingConflictOnADirectoryIsCountedAndReported() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let errors = LockedState<[DurableStorageError]>([])
        let queue = try DurableQueue(
            storage: .directory(directory.url), configuration: Self.aroundIO,
            errorHandler: { error in errors.withLock { $0.append(error) } })
        queue.appendNumbered(0..<3)
        await queue.waitUntilPersisted()
        // A read returns once its operation gave the lock up (a wait for persistence
        // returns just before the write's operation does).
        _ = await queue.read(maxRecords: 1, maxBytes: 1 << 20)
        let holder = try DurableQueue(storage: .directory(directory.url))
        queue.appendNumbered(3..<5)
        await queue.waitUntilPersisted()
        #expect(queue.metrics.dropped[.storageUnavailable, default: 0] == 2)
        #expect(errors.withLock { $0.contains { $0.isLockConflict } })
        #expect(await holder.readAllText() == (0..<3).map { "record-\($0)" })
    }

    /// On a shared folder, an app's provider takes over the records of an idle extension's
    /// queue; the extension goes on reporting and shuts down delivering the rest, its
    /// upload under a lease: everything arrives, one request at a time.
    @Test func anAppAdoptsAnIdleExtensionsQueueInOneProcess() async throws {
        let collector = try LoopbackCollector()
        defer { collector.stop() }
        try await collector.control(["default": ["status": 200, "stall": 0.02]])
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        var extensionConfiguration = DurableProvider.Configuration.test()
        extensionConfiguration.queue.lockPolicy = .aroundIO
        let widget = try DurableProvider(
            endpoint: collector.endpoint, writeKey: "test-key", storage: .shared(folder.url),
            configuration: extensionConfiguration)
        try await widget.receive(envelopes(0..<40))
        await widget.waitUntilPersisted()
        let app = try DurableProvider(
            endpoint: collector.endpoint, writeKey: "test-key", storage: .shared(folder.url), configuration: .test())
        try await app.receive(envelopes(100..<110))
        try await app.flush()
        // Both run as this process's name, so the app may claim the idle queue itself
        // (as a second instance of an extension would) or adopt it: either way it sends it.
        #expect(app.metrics.adopted + app.metrics.recovered == 40)
        try await widget.receive(envelopes(40..<60))
        await widget.waitUntilPersisted()
        async let appFlush: Void = app.flush()
        try await widget.flush()
        try await appFlush
        await widget.shutdown()
        try await app.flush()
        let ids = try await SharedStorageTests.delivered(collector)
        #expect(Set(ids.keys) == Set(0..<60).union(100..<110))
        #expect(ids.values.allSatisfy { $0.count == 1 })
        let accepted = try await collector.accepted()
        #expect(accepted.maxConcurrent == 1, "the lease keeps one request at a time")
        #expect(SharedStorageTests.isFree(folder.url.appendingPathComponent("upload.lock").path))
        await app.shutdown()
    }
}
