@testable import Anna
import AnnaTesting
import Foundation
import Testing

/// How the pipeline's loop waits between looks at the intake, so that `report` at an
/// app's usual rates wakes no thread: it lingers 2 ms after work, then dozes on a slow
/// tick for a second, then goes idle. A backlog wakes a dozing loop, never a
/// lingering one (which then takes the burst in one chunk); an item someone waits on
/// wakes either.
@Suite struct PipelineDozeTests {
    private func scheduledIntake(_ pause: Intake.Pause, holding events: Int) -> Intake {
        var intake = Intake(grantedConsent: [.analytics])
        let started = intake.schedule()
        #expect(started)
        intake.pause = pause
        intake.heldEvents = events
        return intake
    }

    @Test func aBacklogWakesADozingLoopOnly() {
        var lingering = scheduledIntake(.lingering, holding: Intake.wakeBacklog * 8)
        let lingeringWoke = lingering.scheduleForReport()
        #expect(!lingeringWoke, "a lingering loop looks again within 2 ms and takes the burst at once")
        #expect(lingering.pause == .lingering)

        var dozing = scheduledIntake(.dozing, holding: Intake.wakeBacklog - 1)
        let fewWoke = dozing.scheduleForReport()
        #expect(!fewWoke, "a few events wait for the next tick")
        dozing.heldEvents = Intake.wakeBacklog
        let tick = dozing.tick
        let backlogWoke = dozing.scheduleForReport()
        #expect(backlogWoke, "a backlog cancels the tick and wakes the loop")
        #expect(dozing.pause == .none && dozing.tick != tick)
        let wokeAgain = dozing.scheduleForReport()
        #expect(!wokeAgain, "woken once")

        var running = scheduledIntake(.none, holding: Intake.wakeBacklog * 8)
        let runningWoke = running.scheduleForReport() || running.scheduleNow()
        #expect(!runningWoke, "a running loop needs no wake")
    }

    @Test func anItemSomeoneWaitsOnWakesALingeringOrDozingLoop() {
        for pause in [Intake.Pause.lingering, .dozing] {
            var intake = scheduledIntake(pause, holding: 0)
            let woke = intake.scheduleNow()
            #expect(woke)
            #expect(intake.pause == .none)
        }
    }

    /// After work the loop stays scheduled, so the next `report` leaves its event
    /// without waking a thread; the event still reaches the provider without a flush,
    /// at the next tick; a second after the last work the loop goes idle.
    @Test(.timeLimit(.minutes(2))) func reportBetweenTicksWakesNothingAndTheEventStillArrives() async throws {
        let provider = RecordingProvider()
        let analytics = AnalyticsService(providers: [provider], configuration: .test())
        // What report does under the intake's lock, without the event, once the loop
        // dozes; never on an idle intake, where it would mark a loop scheduled that
        // does not run. On a loaded machine the loop's thread may wait longer than its
        // second of dozing and go idle at once; each attempt reports again.
        var woke: Bool?
        var reported = 0
        for _ in 0..<20 where woke == nil {
            analytics.report(.categorySelected)
            reported += 1
            try await waitUntil(seconds: 10) { provider.events.count == reported }
            try await waitUntil(seconds: 2, recording: false) {
                woke = analytics.intake.withLock { intake -> Bool? in
                    guard intake.isScheduled && intake.pause == .dozing else { return nil }
                    return intake.scheduleForReport()
                }
                return woke != nil
            }
        }
        #expect(woke == false, "report at a few events a second wakes no thread")
        analytics.report(.categorySelected)
        try await waitUntil(seconds: 10) { provider.events.count == reported + 1 }
        try await waitUntil(seconds: 10) { !analytics.intake.withLock { $0.isScheduled } }
        await analytics.shutdown()
    }

    private func waitUntil(seconds: Double, recording: Bool = true, _ condition: () -> Bool) async throws {
        // Under load a sleep can outlast the loop's second of dozing; polling finds it.
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            guard Date() < deadline else {
                if recording { Issue.record("timed out") }
                return
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
