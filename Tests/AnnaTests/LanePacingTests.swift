@testable import Anna
import AnnaTesting
import Foundation
import Testing

/// Back-pressure from the lanes to the pipeline: in a burst, events wait in the
/// intake while a lane holds a full working set, and a lane that stops making
/// progress stops holding the others back.
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
    /// intake: the pipeline hands the lanes a bounded working set, then the rest
    /// once the provider goes on, all of it, in order.
    @Test(.timeLimit(.minutes(2))) func aBurstWaitsInTheIntakeWhileALaneIsFull() async {
        let gate = GateProvider()
        let recorder = RecordingProvider()
        var configuration = AnalyticsService.Configuration.test()
        configuration.intakeLimit = MemoryLimit(events: 1 << 20, bytes: 1 << 30)
        configuration.providerLimit = MemoryLimit(events: 1 << 20, bytes: 1 << 30)
        configuration.lanePatience = 600_000_000_000  // the gate is never taken for stalled here
        let analytics = AnalyticsService(providers: [gate, recorder], configuration: configuration)
        analytics.report(.categorySelected)
        gate.waitUntilBlocked()
        let burst = 20_000
        for index in 0..<burst { analytics.report(.numbered(thread: 0, sequence: index)) }
        let bound = 1 + LanePacing.window + Intake.chunkSize
        await recorder.waitForEvents(count: LanePacing.window)
        try? await Task.sleep(for: .milliseconds(200))
        #expect(analytics.metrics.forwarded <= bound)
        #expect(recorder.events.count <= bound)

        gate.open()
        await analytics.flush()
        #expect(gate.count == burst + 1)
        let sequences = recorder.events.dropFirst().map { event -> Int in
            guard case .int(let sequence) = event.parameters["sequence"] else { return -1 }
            return sequence
        }
        #expect(sequences == Array(0..<burst))
        #expect(analytics.metrics.forwarded == burst + 1)
        #expect(analytics.metrics.overflowed.isEmpty)
    }

    /// A provider that hangs paces the pipeline for the patience only: then the
    /// other provider gets the whole burst, and the hanging one everything once it
    /// returns (its limit holds all).
    @Test(.timeLimit(.minutes(2))) func aHangingLaneStopsPacingAfterThePatience() async {
        let gate = GateProvider()
        let recorder = RecordingProvider()
        var configuration = AnalyticsService.Configuration.test()
        configuration.intakeLimit = MemoryLimit(events: 1 << 20, bytes: 1 << 30)
        configuration.providerLimit = MemoryLimit(events: 1 << 20, bytes: 1 << 30)
        configuration.lanePatience = 50_000_000
        let analytics = AnalyticsService(providers: [gate, recorder], configuration: configuration)
        analytics.report(.categorySelected)
        gate.waitUntilBlocked()
        let burst = 20_000
        for index in 0..<burst { analytics.report(.numbered(thread: 0, sequence: index)) }
        await recorder.waitForEvents(count: burst + 1)
        #expect(gate.count == 0)

        gate.open()
        await analytics.flush()
        #expect(gate.count == burst + 1)
        #expect(analytics.metrics.overflowed.isEmpty)
    }
}
