@testable import Anna
import AnnaTesting
import Foundation
import Testing

/// The pipeline's thread parks with no timer once it has nothing to do, and the first
/// event after that wakes it: no event waits for a flush, and an idle service's loop
/// stays parked (``IntakeTests`` drive the same machine through every order of inputs).
@Suite struct PipelineWakeTests {
    @Test(.timeLimit(.minutes(10))) func aParkedLoopIsWokenByTheNextReportAndStaysParkedWhileIdle() async throws {
        let provider = RecordingProvider()
        let analytics = AnalyticsService(providers: [provider], configuration: .test())
        for round in 1...3 {
            analytics.report(.categorySelected)
            try await waitUntil { provider.events.count == round }
            try await waitUntil { analytics.intake.withLock { $0.loop } == .parked }
            // Parked, it wakes for nothing: no timer looks at the intake.
            try await Task.sleep(for: .milliseconds(50))
            #expect(analytics.intake.withLock { $0.loop } == .parked)
        }
        // A burst while it lingers or runs is taken without a wake per event.
        for _ in 0..<1_000 { analytics.report(.categorySelected) }
        try await waitUntil { provider.events.count == 1_003 }
        await analytics.shutdown()
    }

    @Test(.timeLimit(.minutes(10))) func aServiceThatGoesAwayDeliversWhatItWasGivenAndItsThreadEnds() async throws {
        let provider = RecordingProvider()
        weak var released: AnalyticsService?
        do {
            let analytics = AnalyticsService(providers: [provider], configuration: .test())
            released = analytics
            for _ in 0..<10 { analytics.report(.categorySelected) }
        }
        #expect(released == nil)
        try await waitUntil { provider.events.count == 10 }
    }

    /// Each pass hands the chunk it took back to the intake with its capacity, so
    /// `report` appends into a whole chunk and never regrows an array. Before, the step
    /// that carried the chunk still held it while the loop emptied it: the loop copied
    /// every chunk, handed back the copy's few slots, and the callers regrew their array
    /// from it, paging in fresh memory on their thread about once in a hundred calls.
    @Test(.timeLimit(.minutes(10))) func theLoopHandsEveryChunkBackWithItsCapacity() async {
        let analytics = AnalyticsService(providers: [RecordingProvider()], configuration: .test())
        for _ in 0..<3 {
            analytics.report(.categorySelected)
            await analytics.flush()
            // This flush's pass comes after the last pass handed its chunk back, and
            // took that chunk for what callers report next.
            await analytics.flush()
            #expect(analytics.intake.withLock { $0.chunkCapacity } >= Intake.chunkSize)
        }
        await analytics.shutdown()
    }

    private func waitUntil(_ condition: () -> Bool) async throws {
        let deadline = Date().addingTimeInterval(20)
        while !condition() {
            guard Date() < deadline else {
                Issue.record("timed out")
                return
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
