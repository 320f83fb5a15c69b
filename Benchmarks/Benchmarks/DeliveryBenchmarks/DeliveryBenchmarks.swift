@_spi(DurableQueue) import Anna
import Benchmark
import Foundation

// Durable delivery: records appended and fsynced per second, `report` with the HTTP
// provider attached, and memory while a 100,000-event backlog waits on disk and is
// read back. No collector runs: the endpoint is a closed loopback port, so events
// stay on disk, as they do offline.

let deliveryEvent = AnalyticsEvent(
    name: "categoryAdded",
    parameters: ["categoryTitle": "Books", "itemCount": 3, "source": "manual"]
)

/// A closed port on loopback: uploads fail fast and back off, events stay queued.
let offlineEndpoint = URL(string: "http://127.0.0.1:9/v1/batch")!

func scratchDirectory(_ name: String) -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("anna-bench-\(name)-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

func offlineProvider(_ directory: URL) -> DurableProvider {
    try! DurableProvider(
        endpoint: offlineEndpoint, writeKey: "bench", storage: .directory(directory),
        configuration: .init(flushAt: .max, flushInterval: .seconds(3600), maxRetryDelay: .seconds(3600),
                             queue: .init(maxBytes: 1 << 30)))
}

/// One event as the provider stores it: its Segment JSON, about 400 bytes.
let storedRecord: [UInt8] = Array(
    #"{"type":"track","event":"categoryAdded","properties":{"categoryTitle":"Books","itemCount":3,"source":"manual"},"messageId":"019a9b4e-8f3c-7d21-9a4b-3c2d1e0f9a8b","timestamp":"2026-11-23T11:00:00.000Z","anonymousId":"6f1c2a9e-1b7d-4c3e-9f0a-2d4b6c8e0a1f","context":{"app":{"name":"Shop","version":"1.0","build":"1"},"device":{"model":"x86_64"},"os":{"name":"Linux","version":"6.1.0"},"library":{"name":"anna-swift","version":"0.1.0"},"locale":"en_US","timezone":"UTC","sessionId":1763895600000}}"#.utf8)

let recordsPerRun = 100_000

let benchmarks: @Sendable () -> Void = {
    destinationBenchmarks()
    let durable = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .throughput, .mallocCountTotal, .peakMemoryResident],
        warmupIterations: 1,
        scalingFactor: .one,
        maxDuration: .seconds(20),
        maxIterations: 20
    )

    // DurableQueue alone: 100,000 stored events appended from one thread, written
    // and fsynced by the writer in batches, until every one is persisted.
    Benchmark("DurableQueue append+fsync, 100,000 events", configuration: durable) { benchmark in
        for _ in benchmark.scaledIterations {
            let directory = scratchDirectory("queue")
            benchmark.startMeasurement()
            // Room in memory for the whole run: this measures the writer, not the buffer bound.
            guard let queue = try? DurableQueue(
                storage: .directory(directory), configuration: .init(maxBytes: 1 << 30, maxBufferedBytes: 1 << 30))
            else { preconditionFailure("the scratch directory is locked") }
            for _ in 0..<recordsPerRun { queue.append(storedRecord) }
            await queue.waitUntilPersisted()
            benchmark.stopMeasurement()
            precondition(queue.metrics.persisted == recordsPerRun)
            try? FileManager.default.removeItem(at: directory)
        }
    }

    // The whole durable path: the provider encodes each envelope as Segment JSON and
    // appends it; persisted once synced.
    Benchmark("HTTPBatchProvider receive+encode+append+fsync, 100,000 events", configuration: durable) { benchmark in
        let envelopes = (0..<1000).map { _ in
            AnalyticsEnvelope(event: deliveryEvent, messageID: UUID(), timestamp: Date(), sessionID: 1,
                              anonymousID: "6f1c2a9e-1b7d-4c3e-9f0a-2d4b6c8e0a1f", context: .current())
        }
        for _ in benchmark.scaledIterations {
            let directory = scratchDirectory("provider")
            benchmark.startMeasurement()
            let provider = offlineProvider(directory)
            for _ in 0..<recordsPerRun / envelopes.count { try? await provider.receive(envelopes) }
            await provider.waitUntilPersisted()
            benchmark.stopMeasurement()
            precondition(provider.metrics.persisted == recordsPerRun)
            await provider.shutdown()
            try? FileManager.default.removeItem(at: directory)
        }
    }

    // The same, with the other calls of the Segment spec in turn (screen, identify,
    // group, alias and track), into a shared folder (an App Group's): its own queue
    // claimed under `queues/`, the ended processes' queues looked for at start.
    // Under both lock policies: an app's (`.whileRunning`) and an extension's (`.aroundIO`).
    for policy in DeliveryStorage.LockPolicy.allCases {
        let name = "HTTPBatchProvider every kind of call, shared folder, 100,000 events"
        Benchmark(policy == .whileRunning ? name : name + ", lock \(policy)", configuration: durable) { benchmark in
            let kinds = AnalyticsEnvelope.Kind.allCases
            let envelopes = (0..<1000).map { index in
                let kind = kinds[index % kinds.count]
                return AnalyticsEnvelope(
                    event: kind == .alias ? AnalyticsEvent(name: "") : deliveryEvent, messageID: UUID(), timestamp: Date(),
                    sessionID: 1, anonymousID: "6f1c2a9e-1b7d-4c3e-9f0a-2d4b6c8e0a1f", userID: "user-42", context: .current(),
                    kind: kind, groupID: kind == .group ? "group-7" : nil, previousID: kind == .alias ? "user-41" : nil)
            }
            for _ in benchmark.scaledIterations {
                let folder = scratchDirectory("shared")
                benchmark.startMeasurement()
                let provider = try! DurableProvider(
                    endpoint: offlineEndpoint, writeKey: "bench", storage: .shared(folder),
                    configuration: .init(flushAt: .max, flushInterval: .seconds(3600), maxRetryDelay: .seconds(3600),
                                         queue: .init(maxBytes: 1 << 30, lockPolicy: policy)))
                for _ in 0..<recordsPerRun / envelopes.count { try? await provider.receive(envelopes) }
                await provider.waitUntilPersisted()
                benchmark.stopMeasurement()
                precondition(provider.metrics.persisted == recordsPerRun)
                await provider.shutdown()
                try? FileManager.default.removeItem(at: folder)
            }
        }
    }

    // `report` on the caller's thread with the durable HTTP provider attached: the
    // path of an accepted event, so with room for every sample (the default limits
    // would drop what a loop faster than the pipeline reports).
    let reportDirectory = scratchDirectory("report")
    var roomForAll = AnalyticsService.Configuration()
    roomForAll.intakeLimit = MemoryLimit(events: .max / 2, bytes: .max / 2)
    roomForAll.providerLimit = MemoryLimit(events: .max / 2, bytes: .max / 2)
    let reporting = AnalyticsService(providers: [offlineProvider(reportDirectory)], configuration: roomForAll)
    Benchmark(
        "Anna report with DurableProvider, caller's thread",
        configuration: .init(
            metrics: [.wallClock, .mallocCountTotal], warmupIterations: 1_000, scalingFactor: .one,
            maxDuration: .seconds(5), maxIterations: 200_000)
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            reporting.report(deliveryEvent)
        }
    }

    // A 100,000-event backlog: received by an offline provider in batches of 1,000
    // (as its lane hands them over), persisted, then, as after a restart, read back
    // and acknowledged in 500-event batches as the uploader does. Peak resident
    // memory is the number to read: the backlog itself is about 45 MB on disk.
    Benchmark(
        "Backlog of 100,000 events: persist, reopen, read and acknowledge",
        configuration: .init(
            metrics: [.wallClock, .peakMemoryResident, .mallocCountTotal], warmupIterations: 0, scalingFactor: .one,
            maxDuration: .seconds(60), maxIterations: 3)
    ) { benchmark in
        let envelopes = (0..<1000).map { _ in
            AnalyticsEnvelope(event: deliveryEvent, messageID: UUID(), timestamp: Date(), sessionID: 1,
                              anonymousID: "6f1c2a9e-1b7d-4c3e-9f0a-2d4b6c8e0a1f", context: .current())
        }
        for _ in benchmark.scaledIterations {
            let directory = scratchDirectory("backlog")
            do {
                let provider = offlineProvider(directory)
                for _ in 0..<recordsPerRun / envelopes.count { try? await provider.receive(envelopes) }
                await provider.shutdown()
            }
            guard let queue = try? DurableQueue(storage: .directory(directory), configuration: .init(maxBytes: 1 << 30))
            else { preconditionFailure("the scratch directory is locked") }
            var read = 0
            while true {
                let records = await queue.read(maxRecords: 500, maxBytes: 500_000)
                if records.isEmpty { break }
                read += records.count
                await queue.acknowledge(records)
            }
            precondition(read == recordsPerRun, "read \(read)")
            try? FileManager.default.removeItem(at: directory)
        }
    }

    // Memory under the default limits: 100,000 events reported in a tight loop to a
    // service with the durable HTTP provider, then flushed to disk. `report` drops
    // what does not fit (counted); `reportWaitingForRoom` waits and drops nothing.
    // Compare peak resident memory with the empty baseline below. One burst per
    // process, as in an app: services created and freed one after the other in one
    // process leave the allocator holding freed memory, which would grow the peak
    // from sample to sample. Run the target several times for more samples.
    let burst = Benchmark.Configuration(
        metrics: [.wallClock, .peakMemoryResident], warmupIterations: 0, scalingFactor: .one,
        maxDuration: .seconds(60), maxIterations: 1)
    Benchmark("Burst of 100,000 events, report, default limits", configuration: burst) { benchmark in
        for _ in benchmark.scaledIterations {
            let directory = scratchDirectory("burst")
            let analytics = AnalyticsService(providers: [defaultProvider(directory)])
            for _ in 0..<recordsPerRun { analytics.report(deliveryEvent) }
            await analytics.flush()
            let metrics = analytics.metrics
            print("report burst: forwarded \(metrics.forwarded), dropped \(metrics.dropped), overflowed \(metrics.overflowed)")
            await analytics.shutdown()
            try? FileManager.default.removeItem(at: directory)
        }
    }
    Benchmark("Burst of 100,000 events, reportWaitingForRoom, default limits", configuration: burst) { benchmark in
        for _ in benchmark.scaledIterations {
            let directory = scratchDirectory("burst-wait")
            let analytics = AnalyticsService(providers: [defaultProvider(directory)])
            for _ in 0..<recordsPerRun { await analytics.reportWaitingForRoom(deliveryEvent) }
            await analytics.flush()
            precondition(analytics.metrics.forwarded == recordsPerRun)
            await analytics.shutdown()
            try? FileManager.default.removeItem(at: directory)
        }
    }
    // Room for the whole burst (the limits hold all 100,000): what an event costs
    // while held between `report` and the disk, as peak memory above the empty run.
    Benchmark("Burst of 100,000 events, report, room for all", configuration: burst) { benchmark in
        for _ in benchmark.scaledIterations {
            let directory = scratchDirectory("burst-all")
            let analytics = AnalyticsService(providers: [defaultProvider(directory)], configuration: roomForAll)
            for _ in 0..<recordsPerRun { analytics.report(deliveryEvent) }
            await analytics.flush()
            precondition(analytics.metrics.forwarded == recordsPerRun)
            await analytics.shutdown()
            try? FileManager.default.removeItem(at: directory)
        }
    }
    Benchmark("Empty baseline (for peak memory)", configuration: burst) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(recordsPerRun) }
    }
    lockPolicyBenchmarks(durable)
    phoneBenchmarks()
}

/// An offline provider with every default but the endpoint.
func defaultProvider(_ directory: URL) -> DurableProvider {
    try! DurableProvider(endpoint: offlineEndpoint, writeKey: "bench", storage: .directory(directory))
}
