import Foundation
import Testing

@_spi(DurableQueue) @testable import Anna

/// Request bodies travel gzip-compressed by default; the loopback collector
/// decompresses each one and checks its batch as it checks plain JSON.
@Suite(.serialized) struct GzipBodyTests {
    @Test func gzipRoundTripsThroughTheSystemsZlib() throws {
        let text = Array(String(repeating: #"{"type":"track","event":"categoryAdded"},"#, count: 200).utf8)
        let compressed = try #require(Gzip.compress(text))
        #expect(compressed.starts(with: [0x1f, 0x8b]), "a gzip member's magic bytes")
        #expect(compressed.count * 10 < text.count)
        #expect(Gzip.decompress(compressed) == text)
        #expect(Gzip.decompress(try #require(Gzip.compress([]))) == [])
        #expect(Gzip.decompress(Array("not gzip".utf8)) == nil)
    }

    @Test func bodiesAreGzippedByDefaultAndTheCollectorReadsThem() async throws {
        let collector = try LoopbackCollector()
        defer { collector.stop() }
        let provider = try DurableProvider(
            endpoint: collector.endpoint, writeKey: "test-key", storage: .memory(limit: 1 << 20), configuration: .test())
        let sent = envelopes(0..<100)
        try await provider.receive(sent)
        try await provider.flush()
        let accepted = try await collector.accepted()
        #expect(accepted.invalid.isEmpty && accepted.statuses == ["200": 1])
        #expect(accepted.events.map(\.messageID) == sent.map { $0.messageID.uuidString.lowercased() })
        let request = try #require(accepted.wire.first)
        #expect(request.encoding == "gzip" && request.events == 100)
        #expect(request.wireBytes * 4 < request.jsonBytes, "\(request.wireBytes) bytes sent for \(request.jsonBytes) of JSON")
        await provider.shutdown()
    }

    @Test func compressionCanBeTurnedOff() async throws {
        let collector = try LoopbackCollector()
        defer { collector.stop() }
        var configuration = DurableProvider.Configuration.test()
        configuration.compressesRequests = false
        let provider = try DurableProvider(
            endpoint: collector.endpoint, writeKey: "test-key", storage: .memory(limit: 1 << 20),
            configuration: configuration)
        try await provider.receive(envelopes(0..<10))
        try await provider.flush()
        let accepted = try await collector.accepted()
        #expect(accepted.events.map(\.number) == Array(0..<10))
        let request = try #require(accepted.wire.first)
        #expect(request.encoding == nil && request.wireBytes == request.jsonBytes)
        await provider.shutdown()
    }

    /// Collectors apply their 500 KB limit to the JSON, not to the bytes sent: batches
    /// are cut by `maxBatchSize` before compression, however small they compress.
    @Test func batchesAreCutByTheirUncompressedSize() async throws {
        let collector = try LoopbackCollector()
        defer { collector.stop() }
        let provider = try DurableProvider(
            endpoint: collector.endpoint, writeKey: "test-key", storage: .memory(limit: 4 << 20), configuration: .test())
        try await provider.receive(envelopes(0..<200, padding: 5_000))
        try await provider.flush()
        let accepted = try await collector.accepted()
        #expect(accepted.events.map(\.number) == Array(0..<200) && accepted.statuses == ["200": 3])
        #expect(accepted.wire.allSatisfy { $0.encoding == "gzip" && $0.jsonBytes <= 500_000 })
        #expect(accepted.wire.map(\.wireBytes).reduce(0, +) < 100_000, "1 MB of repetitive JSON")
        await provider.shutdown()
    }

    /// A collector whose limit is below the batch, counted in JSON bytes, answers 413
    /// to a body that is small on the wire: the batch is split as without gzip.
    @Test func a413OnACompressedBodySplitsByTheUncompressedSize() async throws {
        let collector = try LoopbackCollector()
        defer { collector.stop() }
        var configuration = DurableProvider.Configuration.test()
        configuration.maxBatchSize = 2_000_000
        let provider = try DurableProvider(
            endpoint: collector.endpoint, writeKey: "test-key", storage: .memory(limit: 4 << 20),
            configuration: configuration)
        try await provider.receive(envelopes(0..<200, padding: 5_000))
        try await provider.flush()
        let accepted = try await collector.accepted()
        #expect(accepted.events.map(\.number) == Array(0..<200), "in order, after splitting")
        #expect((accepted.statuses["413"] ?? 0) >= 1 && provider.metrics.delivered == 200)
        let refused = try #require(accepted.wire.first)
        #expect(refused.jsonBytes > 500 * 1024 && refused.wireBytes < 100_000)
        #expect(provider.metrics.dropped.isEmpty)
        await provider.shutdown()
    }
}
