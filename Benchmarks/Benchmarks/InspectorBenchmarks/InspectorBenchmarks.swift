import Benchmark
import Foundation
@_spi(Benchmarks) import _AnnaInspector

/// The inspector tests' plan: events with enums, object lists, patterns and PII.
let specURL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appending(path: "Tests/AnnaInspectorTests/Fixtures/store.anna.yml")

/// One batch of 100 typical calls as Anna's HTTP provider writes them: 80 tracks
/// (orders with two line items, searches, app opens), 15 screens, 5 identifies, each
/// with its message id, timestamp, ids and context. With `versions`, each call's
/// `context.plan` names one of them in turn, as a versioned plan's clients stamp it.
func typicalBatch(_ batch: Int, versions: [String] = []) -> [UInt8] {
    let base = #""context":{"app":{"name":"Store","version":"2.4","build":"311"},"device":{"model":"iPhone15,2","manufacturer":"Apple"},"os":{"name":"iOS","version":"18.1"},"library":{"name":"anna-swift","version":"0.13.0"},"locale":"en_US","timezone":"Europe/Berlin","sessionId":1763895600000"#
    var calls: [String] = []
    for index in 0..<100 {
        let context = base + (versions.isEmpty ? "}" : #","plan":{"name":"Store","version":"\#(versions[index % versions.count])","eventVersion":"1.0.0"}}"#)
        let ids = #""messageId":"019a9b4e-8f3c-7d21-9a4b-\#(String(format: "%012d", batch * 100 + index))","timestamp":"2026-01-01T10:00:00.250Z","anonymousId":"5C1B0E7A-3F0B-4C9E-9D42-7A1C2B3D4E5F","userId":"u-1042","#
        switch index % 20 {
        case 0..<6:
            calls.append(#"{"type":"track","event":"orderPlaced","properties":{"orderID":"o-\#(index)","total":42.5,"delivery":"express","items":[{"sku":"ABC-12","price":19.5,"quantity":1},{"sku":"XYZ-7","price":11.5,"quantity":2}],"theme":"dark"},"# + ids + context + "}")
        case 6..<12:
            calls.append(#"{"type":"track","event":"searchPerformed","properties":{"query":"red shoes","resultCount":\#(index)},"# + ids + context + "}")
        case 12..<16:
            calls.append(#"{"type":"track","event":"appOpened","properties":{"theme":"light"},"# + ids + context + "}")
        case 16..<19:
            calls.append(#"{"type":"screen","name":"Cart","properties":{"itemCount":3},"# + ids + context + "}")
        default:
            calls.append(#"{"type":"identify","traits":{"email":"someone@example.com","loyaltyTier":"gold"},"# + ids + context + "}")
        }
    }
    return Array(("{\"batch\":[" + calls.joined(separator: ",") + "],\"sentAt\":\"2026-01-01T10:00:01.000Z\"}").utf8)
}

/// The store plan as two released versions, 1.0.0 and 2.0.0 (2.0.0 adds an event), in
/// a temporary folder: the two-version rows load both.
func versionedSpecs() throws -> (current: String, released: String) {
    let text = try String(contentsOf: specURL, encoding: .utf8)
    let folder = FileManager.default.temporaryDirectory.appending(path: "anna-inspect-benchmark-\(ProcessInfo.processInfo.processIdentifier)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let released = folder.appending(path: "store-1.anna.yml")
    let current = folder.appending(path: "store-2.anna.yml")
    try text.replacingOccurrences(of: "\nnamespace: Store\n", with: "\nnamespace: Store\nversion: 1.0.0\n").write(to: released, atomically: true, encoding: .utf8)
    try text.replacingOccurrences(of: "\nnamespace: Store\n", with: "\nnamespace: Store\nversion: 2.0.0\n")
        .replacingOccurrences(of: "\nevents:\n", with: "\nevents:\n  wishlistShared:\n    description: Added in 2.0.0.\n").write(to: current, atomically: true, encoding: .utf8)
    return (current.path, released.path)
}

let benchmarks: @Sendable () -> Void = {
    let batches = (0..<100).map { typicalBatch($0) }
    let harness: InspectorBenchmarkHarness
    do {
        harness = try InspectorBenchmarkHarness(specPath: specURL.path, preparing: Array(batches.prefix(10)))
    } catch {
        print("cannot read \(specURL.path): \(error)")
        return
    }

    // Issue 54: the same calls, each naming 1.0.0 or 2.0.0 in turn, with both versions loaded.
    let versionedBatches = (0..<100).map { typicalBatch($0, versions: ["1.0.0", "2.0.0"]) }
    // The baseline the issue names: one version loaded (2.0.0), every call naming it, so
    // the bytes and the version's lookup are the same and only the second version differs.
    let singleVersionBatches = (0..<100).map { typicalBatch($0, versions: ["2.0.0"]) }
    let versioned: InspectorBenchmarkHarness
    let singleVersion: InspectorBenchmarkHarness
    do {
        let specs = try versionedSpecs()
        versioned = try InspectorBenchmarkHarness(specPaths: [specs.current], releasedSpecPaths: [specs.released], preparing: Array(versionedBatches.prefix(10)))
        singleVersion = try InspectorBenchmarkHarness(specPaths: [specs.current], releasedSpecPaths: [], preparing: Array(singleVersionBatches.prefix(10)))
    } catch {
        print("cannot write or read the versioned store specs: \(error)")
        return
    }

    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .instructions, .mallocCountTotal, .peakMemoryResident],
        warmupIterations: 2,
        scalingFactor: .kilo,
        maxDuration: .seconds(10),
        maxIterations: 100
    )

    // Two rows per plan: one iteration is 1,000 calls in 10 batch requests, each parsed,
    // checked and recorded, on the benchmark's one thread (calls per second is 1,000 ×
    // the iterations per second); then the checks alone, on 1,000 calls already parsed.
    func rows(_ plan: String, ingested: String, checked: String, _ inspector: InspectorBenchmarkHarness, _ requests: [[UInt8]]) {
        Benchmark("anna inspect: \(plan)10 requests in, 1,000 \(ingested) parsed, checked and recorded", configuration: .init(scalingFactor: .one)) { benchmark in
            var round = 0
            for _ in benchmark.scaledIterations {
                for offset in 0..<10 { blackHole(inspector.ingest(batch: requests[(round + offset) % requests.count])) }
                round += 10
            }
        }
        Benchmark("anna inspect: \(plan)1,000 \(checked) checked", configuration: .init(scalingFactor: .one)) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(inspector.checkPrepared()) }
        }
    }

    rows("", ingested: "typical calls", checked: "parsed calls", harness, batches)
    // Issue 54: the same rows with one plan version loaded, each call naming it; then
    // with two loaded, each call checked against the version its context.plan names.
    rows("one plan version, ", ingested: "versioned calls", checked: "parsed versioned calls", singleVersion, singleVersionBatches)
    rows("two plan versions, ", ingested: "versioned calls", checked: "parsed versioned calls", versioned, versionedBatches)

    // Memory for 1,000,000 calls with the default bounds (the last 1,000 calls kept,
    // the rest counted), on a new inspector.
    Benchmark(
        "anna inspect: 1,000,000 calls with the default bounds",
        configuration: .init(metrics: [.wallClock, .peakMemoryResident], warmupIterations: 0, scalingFactor: .one, maxDuration: .seconds(300), maxIterations: 1)
    ) { benchmark in
        guard let fresh = try? InspectorBenchmarkHarness(specPath: specURL.path) else { return }
        for _ in benchmark.scaledIterations {
            for index in 0..<10_000 { blackHole(fresh.ingest(batch: batches[index % batches.count])) }
        }
        let counts = fresh.counts
        if counts.recorded != 1_000_000 || counts.kept != 1_000 { print("unexpected counts: \(counts)") }
    }
}
