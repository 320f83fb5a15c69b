@testable import Anna
import AnnaTesting
import Foundation
import Testing

/// Back-pressure from the lanes to the pipeline: in a burst, events wait in the
/// intake while every lane holds a full working set; a lane that has work or stops
/// making progress holds no one back.
@Suite struct LanePacingTests {
    @Test func aLanePacesOnlyWhileFullAndProgressing() {
        let window = LanePacing.window
        let patience = LanePacing.patience
        #expect(!LanePacing.paces(heldEvents: window - 1, lastProgress: 1_000, now: 1_000))
        #expect(LanePacing.paces(heldEvents: window, lastProgress: 1_000, now: 1_000))
        #expect(LanePacing.paces(heldEvents: window, lastProgress: 1_000, now: 1_000 + patience - 1))
        #expect(!LanePacing.paces(heldEvents: window, lastProgress: 1_000, now: 1_000 + patience))
    }

    /// With limits that hold everything, a busy provider keeps the burst in the
    /// intake: the pipeline hands its lane a bounded working set, then the rest once
    /// the provider goes on, all of it, in order.
    @Test(.timeLimit(.minutes(10))) func aBurstWaitsInTheIntakeWhileTheLaneIsFull() async {
        let provider = GatedRecordingProvider()
        let analytics = AnalyticsService(providers: [provider], configuration: .roomForAll(patience: 600_000_000_000))
        analytics.report(.categorySelected)
        provider.waitUntilBlocked()
        let burst = 20_000
        for index in 0..<burst { analytics.report(.numbered(thread: 0, sequence: index)) }
        let bound = 1 + LanePacing.window + Intake.chunkSize
        await waitUntil { analytics.metrics.forwarded >= LanePacing.window }
        try? await Task.sleep(for: .milliseconds(200))
        #expect(analytics.metrics.forwarded <= bound)

        provider.open()
        await analytics.flush()
        let sequences = provider.events.dropFirst().map { event -> Int in
            guard case .int(let sequence) = event.parameters["sequence"] else { return -1 }
            return sequence
        }
        #expect(sequences == Array(0..<burst))
        #expect(analytics.metrics.forwarded == burst + 1)
        #expect(analytics.metrics.overflowed.isEmpty)
    }

    /// The pipeline waits only while every lane is full: a provider that hangs
    /// never holds back one that has room, however long the patience.
    @Test(.timeLimit(.minutes(10))) func aFullLaneHoldsBackNoLaneWithRoom() async {
        let gate = GateProvider()
        let recorder = RecordingProvider()
        let analytics = AnalyticsService(
            providers: [gate, recorder], configuration: .roomForAll(patience: 600_000_000_000))
        analytics.report(.categorySelected)
        gate.waitUntilBlocked()
        let burst = 20_000
        for index in 0..<burst { analytics.report(.numbered(thread: 0, sequence: index)) }
        await recorder.waitForEvents(count: burst + 1)
        #expect(gate.count == 0)
        gate.open()
        await analytics.flush()
        #expect(gate.count == burst + 1)
    }

    /// A lane whose provider hangs paces the pipeline for the patience only; then
    /// the burst goes on into its lane (whose limit holds all).
    @Test(.timeLimit(.minutes(10))) func aHangingLaneStopsPacingAfterThePatience() async {
        let gate = GateProvider()
        let analytics = AnalyticsService(providers: [gate], configuration: .roomForAll(patience: 50_000_000))
        analytics.report(.categorySelected)
        gate.waitUntilBlocked()
        let burst = 20_000
        for index in 0..<burst { analytics.report(.numbered(thread: 0, sequence: index)) }
        await waitUntil { analytics.metrics.forwarded == burst + 1 }
        #expect(gate.count == 0)
        gate.open()
        await analytics.flush()
        #expect(gate.count == burst + 1)
        #expect(analytics.metrics.overflowed.isEmpty)
    }

    private func waitUntil(_ condition: () -> Bool) async {
        while !condition() { try? await Task.sleep(for: .milliseconds(5)) }
    }
}

extension AnalyticsService.Configuration {
    /// Limits that hold a whole burst, and the given patience of the lanes.
    fileprivate static func roomForAll(patience: UInt64) -> Self {
        var configuration = Self.test()
        configuration.intakeLimit = MemoryLimit(events: 1 << 20, bytes: 1 << 30)
        configuration.providerLimit = MemoryLimit(events: 1 << 20, bytes: 1 << 30)
        configuration.lanePatience = patience
        return configuration
    }
}

/// Blocks in `receive` until opened, then records what it received, in order.
private final class GatedRecordingProvider: AnalyticsProvider, @unchecked Sendable {
    var name: String { "GatedRecordingProvider" }
    private let gate = GateProvider()
    private let lock = NSLock()
    private var received: [AnalyticsEvent] = []

    var events: [AnalyticsEvent] { lock.withLock { received } }

    func receive(_ batch: [AnalyticsEnvelope]) async throws {
        try await gate.receive(batch)
        lock.withLock { received.append(contentsOf: batch.map(\.event)) }
    }

    func waitUntilBlocked() { gate.waitUntilBlocked() }
    func open() { gate.open() }
}
