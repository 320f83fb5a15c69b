import Foundation
import Testing

@_spi(Generated) @testable import Anna

/// The uploader's thread is woken for a persisted record only when the machine's next
/// step could change: a trickle of events between the edges wakes nothing (issue 41).
@Suite struct UploadBacklogWakeTests {
    let start = ContinuousClock.now

    /// Machines in the waits a backlog change can meet: idle before and after a round,
    /// backing off, on an expensive path with a backlog limit, and on no path at all.
    private func machines() -> [(String, TestMachine)] {
        var configuration = DurableProvider.Configuration(flushAt: 10, maxBacklogOnExpensivePath: 50)
        configuration.flushInterval = .seconds(30)
        let make = { TestMachine(configuration: .init(configuration), random: FixedRandom(), now: start) }
        var afterRound = make()
        afterRound.backlogChanged(3)
        _ = afterRound.flushRequested(1, now: start)
        _ = afterRound.sendBatch(of: 3, at: start) { _ in .accepted }
        var backingOff = make()
        backingOff.backlogChanged(3)
        _ = backingOff.flushRequested(1, now: start)
        _ = backingOff.sendBatch(of: 3, at: start) { _ in .failed(status: 503, message: "down", retryAfter: nil) }
        var expensive = make()
        _ = expensive.pathChanged(NetworkPath(isReachable: true, isExpensive: true))
        var offline = make()
        _ = offline.pathChanged(.unreachable)
        return [("idle", make()), ("after a round", afterRound), ("backing off", backingOff),
                ("expensive path", expensive), ("offline", offline)]
    }

    @Test func aBacklogChangeThatWakesNothingLeavesEveryNextStepAsItWas() {
        let counts = [0, 1, 2, 9, 10, 11, 49, 50, 51, 500]
        let later: [Duration] = [.zero, .seconds(1), .seconds(29), .seconds(30), .seconds(31), .seconds(3_600)]
        var quiet = 0
        for (name, machine) in machines() {
            for old in counts {
                var before = machine
                before.backlogChanged(old)
                for new in counts {
                    var after = before
                    let wakes = after.backlogChanged(new)
                    if !wakes { quiet += 1 }
                    for offset in later {
                        var stepBefore = before
                        var stepAfter = after
                        let expected = stepBefore.next(now: start + offset)
                        let step = stepAfter.next(now: start + offset)
                        if !wakes {
                            #expect(step == expected, "\(name): \(old) → \(new) woke nothing, but the step at +\(offset) changed")
                        }
                    }
                }
            }
        }
        #expect(quiet > 200, "most changes between the edges wake nothing")
    }

    @Test func aTrickleWakesTheDriverOnceAndTheFlushCountAgain() {
        var machine = TestMachine.make(at: start, flushAt: 10, flushInterval: .seconds(30))
        #expect(machine.next(now: start) == .wait(until: nil))
        let first = machine.backlogChanged(1)
        #expect(first, "the first record: the wait gets a deadline")
        #expect(machine.next(now: start) == .wait(until: start + .seconds(30)))
        for count in 2...9 {
            let wakes = machine.backlogChanged(count)
            #expect(!wakes, "record \(count) wakes nothing: the deadline stays")
        }
        let full = machine.backlogChanged(10)
        #expect(full, "flushAt: a round starts now")
        #expect(machine.next(now: start).isRead)
        let more = machine.backlogChanged(11)
        #expect(!more, "between the edges: the round under way looks at the backlog when it ends")
    }
}
