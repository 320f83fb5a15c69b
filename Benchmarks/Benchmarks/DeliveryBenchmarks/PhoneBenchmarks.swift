@_spi(DurableQueue) import Anna
import Benchmark
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// What a phone pays for Anna: bytes on the wire, requests and fsyncs while events
// trickle in, wake-ups while idle. Counts, not times: each is a custom metric read
// off a real run against the tests' loopback collector (collector.py).

/// One typical event: three parameters.
let typicalEvent = AnalyticsEvent(
    name: "productViewed", parameters: ["productId": "SKU-1001", "category": "books", "price": 39.9])

/// The `index`th of a batch of typical events: three parameters whose values vary
/// from event to event, as a user browsing a shop would send them.
func typicalEvent(_ index: Int) -> AnalyticsEvent {
    let categories = ["books", "music", "garden", "toys", "kitchen", "sports", "games"]
    return AnalyticsEvent(
        name: ["productViewed", "productAdded", "productViewed", "searched"][index % 4],
        parameters: [
            "productId": .string("SKU-\((index * 7_919) % 100_000)"),
            "category": .string(categories[(index * 31) % categories.count]),
            "price": .double(Double((index * 1_237) % 20_000) / 100),
        ])
}

/// Every field of Segment's context filled, as on a phone.
let fullContext = AnalyticsContext(
    app: .init(name: "Shop", version: "2.4.1", build: "2410", namespace: "com.example.shop"),
    device: .init(model: "iPhone15,3", manufacturer: "Apple"), os: .init(name: "iOS", version: "18.1"),
    locale: "en_US", timezone: "Europe/Berlin")

func phoneBenchmarks() {
    let counts = Benchmark.Configuration(
        metrics: [
            .custom("wire bytes per event", useScalingFactor: false),
            .custom("JSON bytes per event", useScalingFactor: false),
        ],
        warmupIterations: 0, scalingFactor: .one, maxDuration: .seconds(60), maxIterations: 3)

    // A batch of 100 typical events reported through the service, in one request:
    // bytes on the wire per event, as the collector received them, and the same
    // batch's JSON.
    for compressed in [true, false] {
        Benchmark("Bytes per event, a batch of 100 typical events, \(compressed ? "gzip" : "uncompressed")",
                  configuration: counts) { benchmark in
            guard let collector = try? BenchCollector() else { preconditionFailure("collector.py did not start") }
            defer { collector.stop() }
            for _ in benchmark.scaledIterations {
                let directory = scratchDirectory("wire")
                let http = try! DurableProvider(
                    endpoint: collector.endpoint, writeKey: "test-key", storage: .directory(directory),
                    configuration: .init(flushAt: .max, flushInterval: .seconds(3600), compressesRequests: compressed))
                let analytics = AnalyticsService(
                    providers: [http],
                    configuration: .init(context: fullContext, storageDirectory: directory, lifecycle: nil))
                for index in 0..<100 { analytics.report(typicalEvent(index)) }
                await analytics.flush()
                await analytics.shutdown()
                let wire = collector.accepted()["wire"] as? [[Any]] ?? []
                precondition(wire.count == 1 && wire[0][3] as? Int == 100, "one request of 100 events: \(wire)")
                benchmark.measurement(.custom("wire bytes per event", useScalingFactor: false), (wire[0][1] as? Int ?? 0) / 100)
                benchmark.measurement(.custom("JSON bytes per event", useScalingFactor: false), (wire[0][2] as? Int ?? 0) / 100)
                collector.reset()
                try? FileManager.default.removeItem(at: directory)
            }
        }
    }

    // A trickle of one event every 2 s, in time scaled by 1/20 (one every 100 ms,
    // flushInterval / 20; the queue's 50 ms sync window stays shorter than the gap,
    // as at full scale): requests and fsyncs per 1,000 events. 300 events per run.
    let trickle = Benchmark.Configuration(
        metrics: [
            .custom("requests per 1,000 events", useScalingFactor: false),
            .custom("fsyncs per 1,000 events", useScalingFactor: false),
        ],
        warmupIterations: 0, scalingFactor: .one, maxDuration: .seconds(120), maxIterations: 1)
    for (flushAt, interval) in [(20, 10), (20, 30)] {
        Benchmark("Trickle, one event every 2 s, flushAt \(flushAt), flushInterval \(interval) s", configuration: trickle) {
            benchmark in
            guard let collector = try? BenchCollector() else { preconditionFailure("collector.py did not start") }
            defer { collector.stop() }
            let events = 300
            let directory = scratchDirectory("trickle")
            let http = try! DurableProvider(
                endpoint: collector.endpoint, writeKey: "test-key", storage: .directory(directory),
                configuration: .init(flushAt: flushAt, flushInterval: .milliseconds(interval * 1000 / 20)))
            let analytics = AnalyticsService(
                providers: [http], configuration: .init(context: fullContext, storageDirectory: directory, lifecycle: nil))
            for _ in 0..<events {
                analytics.report(typicalEvent)
                try? await Task.sleep(for: .milliseconds(100))
            }
            await analytics.flush()
            precondition(http.metrics.delivered == events, "delivered \(http.metrics.delivered)")
            let requests = collector.accepted()["requests"] as? Int ?? 0
            benchmark.measurement(.custom("requests per 1,000 events", useScalingFactor: false), requests * 1000 / events)
            benchmark.measurement(
                .custom("fsyncs per 1,000 events", useScalingFactor: false), http.queueMetrics.syncs * 1000 / events)
            await analytics.shutdown()
            try? FileManager.default.removeItem(at: directory)
        }
    }

    // Wake-ups while idle: context switches of every thread of the process
    // (getrusage) over 28 idle seconds, without Anna and after a flush with Anna.
    let idle = Benchmark.Configuration(
        metrics: [.custom("context switches in 28 s", useScalingFactor: false)],
        warmupIterations: 0, scalingFactor: .one, maxDuration: .seconds(60), maxIterations: 1)
    Benchmark("Idle 28 s, without Anna", configuration: idle) { benchmark in
        let switches = await contextSwitches(during: .seconds(28))
        benchmark.measurement(.custom("context switches in 28 s", useScalingFactor: false), switches)
    }
    Benchmark("Idle 28 s after a flush, with Anna and the HTTP provider", configuration: idle) { benchmark in
        guard let collector = try? BenchCollector() else { preconditionFailure("collector.py did not start") }
        defer { collector.stop() }
        let directory = scratchDirectory("idle")
        let http = try! DurableProvider(endpoint: collector.endpoint, writeKey: "test-key", storage: .directory(directory))
        let analytics = AnalyticsService(
            providers: [http], configuration: .init(context: fullContext, storageDirectory: directory, lifecycle: nil))
        for _ in 0..<25 { analytics.report(typicalEvent) }
        await analytics.flush()
        precondition(http.metrics.delivered == 25)
        let switches = await contextSwitches(during: .seconds(28))
        benchmark.measurement(.custom("context switches in 28 s", useScalingFactor: false), switches)
        await analytics.shutdown()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Voluntary and involuntary context switches of the whole process while it sleeps.
func contextSwitches(during duration: Duration) async -> Int {
    func now() -> Int {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        return usage.ru_nvcsw + usage.ru_nivcsw
    }
    let before = now()
    try? await Task.sleep(for: duration)
    return now() - before
}

/// The tests' collector (`Tests/AnnaDeliveryTests/collector.py`) on a free loopback port.
final class BenchCollector: @unchecked Sendable {
    private let process = Process()
    let port: Int
    var endpoint: URL { URL(string: "http://127.0.0.1:\(port)/v1/batch")! }

    /// - Parameter script: The collector under Tests/: Segment's (collector.py) by
    ///   default, or the vendors' (AnnaDeliveryTests/Destinations/vendors.py).
    init(script: String = "AnnaDeliveryTests/collector.py") throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../Tests/\(script)").standardized
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, "0", "test-key"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) else {
            process.terminate()
            throw CocoaError(.fileReadUnknown)
        }
        self.port = port
    }

    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// The collector's `/accepted` view.
    func accepted() -> [String: Any] {
        let data = request("/accepted", body: nil)
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }

    func reset() {
        _ = request("/control", body: Data(#"{"reset": true}"#.utf8))
    }

    private func request(_ path: String, body: Data?) -> Data {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = body == nil ? "GET" : "POST"
        request.httpBody = body
        let done = DispatchSemaphore(value: 0)
        let result = LockedBox<Data>(Data())
        URLSession.shared.dataTask(with: request) { data, _, _ in
            result.set(data ?? Data())
            done.signal()
        }.resume()
        done.wait()
        return result.get()
    }
}

/// A value behind a lock, for a URLSession callback.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func set(_ newValue: Value) { lock.withLock { value = newValue } }
    func get() -> Value { lock.withLock { value } }
}
