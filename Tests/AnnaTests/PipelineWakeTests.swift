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
