import Foundation
import Testing

@_spi(DurableQueue) @testable import Anna

@Suite(.serialized) struct BacklogTests {
    /// The resident set of this process in bytes: `task_info` on Apple platforms,
    /// `/proc/self/status` on Linux; 0 where neither answers (the check then fails,
    /// see below, rather than pass without measuring).
    static func residentBytes() -> Int {
        #if canImport(Darwin)
        var info = mach_task_basic_info()
        var count = mach_msg_type_number_t(MemoryLayout<mach_task_basic_info>.size / MemoryLayout<natural_t>.size)
        let result = withUnsafeMutablePointer(to: &info) { pointer in
            pointer.withMemoryRebound(to: integer_t.self, capacity: Int(count)) {
                task_info(mach_task_self_, task_flavor_t(MACH_TASK_BASIC_INFO), $0, &count)
            }
        }
        return result == KERN_SUCCESS ? Int(info.resident_size) : 0
        #else
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return 0 }
        return (Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0) * 1024
        #endif
    }

    /// 100,000 events while the collector is down (connections refused), then up:
    /// all delivered, in order, one request at a time, while the backlog stays on disk.
    @Test func aBacklogOf100000EventsIsDeliveredInOrderWhenTheCollectorComesBack() async throws {
        let count = 100_000
        let down = try LoopbackCollector()
        let port = down.port
        down.stop()
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let provider = try DurableProvider(
            endpoint: URL(string: "http://127.0.0.1:\(port)/v1/batch")!, writeKey: "test-key",
            storage: .directory(directory.url),
            configuration: .init(
                flushAt: 100, flushInterval: .seconds(1), initialRetryDelay: .milliseconds(50),
                maxRetryDelay: .milliseconds(250)))
        let analytics = AnalyticsService(providers: [provider])
        // A bulk load: waits for room rather than dropping past the memory limits.
        for number in 0..<count { await analytics.reportWaitingForRoom(.numbered(number)) }
        await analytics.flush()
        var metrics = provider.metrics
        #expect(metrics.persisted == count && metrics.backlog == count && metrics.delivered == 0)
        #expect(metrics.retried > 0 && metrics.dropped.isEmpty)
        let backlogBytes = provider.queue.metrics.storedBytes
        #expect(provider.queue.metrics.bufferedBytes == 0 && backlogBytes > 20 << 20)

        let before = Self.residentBytes()
        var peak = before
        let up = try LoopbackCollector(port: port)
        defer { up.stop() }
        let delivered = await eventually(within: 120) {
            peak = max(peak, Self.residentBytes())
            return provider.metrics.delivered == count
        }
        #expect(delivered)
        metrics = provider.metrics
        let accepted = try await up.accepted()
        #expect(accepted.events.map(\.number) == Array(0..<count), "every event, in report order")
        #expect(accepted.maxConcurrent == 1)
        #expect(metrics.backlog == 0 && provider.queue.metrics.storedBytes < 2 << 20)
        print("""
            backlog test: \(count) events, \(backlogBytes) bytes of backlog, \(provider.queue.metrics.storedBytes) left on disk, \
            \(accepted.requests) requests, largest read \(provider.queue.largestRead) bytes; resident \(before >> 20) MiB before delivery, peak \(peak >> 20) MiB during it
            """)
        // The backlog (about 38 MB on disk, more as arrays in memory) is read a chunk at
        // a time, not loaded: the reader held one chunk at a time, never the backlog.
        // The process's resident memory is printed above but not asserted: it is the
        // whole process's, every suite running beside this one included, and memory
        // is measured in the Benchmarks package (DeliveryBenchmarks), not in tests.
        #expect(provider.queue.largestRead <= (1 << 20) + (64 << 10))
        await analytics.shutdown()
    }
}
