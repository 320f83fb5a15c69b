import Testing

@testable import Anna

/// Purges, suspensions and adoption as inputs and steps of the upload machine
/// (issue 22): what the uploader thread decided in its loop, driven here with no
/// thread, sleep or clock.
@Suite struct UploadStateMachineHoldTests {
    let start = ContinuousClock.now

    @Test func aPurgeHoldsTheUploaderAbandonsTheBatchAndTheRoundStartsOverAfterIt() {
        var machine = TestMachine.make(at: start)
        _ = machine.flushRequested(id: 1, now: start)
        #expect(machine.next(now: start).isRead)
        _ = machine.batchRead(count: 4, now: start)
        #expect(machine.next(now: start) == .send(0..<4))

        machine.holdChanged(purging: true, suspended: false)
        #expect(machine.next(now: start) == .hold, "no request while a purge is under way")
        #expect(machine.answered(.accepted, now: start).isEmpty, "the request in flight acknowledges nothing")
        #expect(machine.flushRequested(id: 2, now: start).isEmpty, "a flush during the purge waits for a round after it")
        #expect(machine.next(now: start) == .hold, "still held")

        machine.holdChanged(purging: false, suspended: false)
        #expect(machine.next(now: start).isRead, "the round reads again, after the purge")
        #expect(machine.batchRead(count: 0, now: start).compactMap(\.resumed) == [[1, 2]])
    }

    @Test func aSuspensionHoldsUntilResumeAndAStopEndsIt() {
        var machine = TestMachine.make(at: start, flushAt: 1)
        machine.backlogChanged(5)
        machine.holdChanged(purging: false, suspended: true)
        #expect(machine.next(now: start) == .hold, "a suspended app sends nothing and holds no records")
        machine.holdChanged(purging: false, suspended: false)
        #expect(machine.next(now: start).isRead, "resume: the backlog is sent")
        _ = machine.batchRead(count: 0, now: start)

        machine.holdChanged(purging: false, suspended: true)
        #expect(machine.next(now: start) == .hold)
        machine.stopRequested()
        #expect(!machine.isHeld, "a stop ends a suspension's hold")
        #expect(machine.next(now: start).isRead, "the last round")
        _ = machine.batchRead(count: 0, now: start)
        #expect(machine.next(now: start) == .finish)

        var purging = TestMachine.make(at: start)
        purging.holdChanged(purging: true, suspended: false)
        purging.stopRequested()
        #expect(purging.next(now: start) == .hold, "a stop does not end a purge's hold")
    }

    @Test func aSharedFolderAdoptsAtStartEveryIntervalAndBeforeAFlushRound() {
        var machine = TestMachine.make(at: start, flushInterval: .seconds(30), adoptsOrphans: true)
        #expect(machine.next(now: start) == .adopt, "at start")
        #expect(machine.adopted(now: start).isEmpty)
        #expect(machine.next(now: start) == .wait(until: start + .seconds(30)), "the next adoption bounds the wait")
        #expect(machine.next(now: start + .seconds(30)) == .adopt, "every interval")
        _ = machine.adopted(now: start + .seconds(30))

        let later = start + .seconds(31)
        #expect(machine.flushRequested(id: 9, now: later).isEmpty)
        #expect(machine.next(now: later) == .adopt, "a flush's round waits for an adoption, so it sends what was adopted")
        #expect(machine.adopted(now: later).isEmpty)
        #expect(machine.next(now: later).isRead, "then the flush's round")
        #expect(machine.batchRead(count: 0, now: later).compactMap(\.resumed) == [[9]])
    }

    @Test func noAdoptionWhileHeldNorWithoutASharedFolder() {
        var shared = TestMachine.make(at: start, adoptsOrphans: true)
        shared.holdChanged(purging: true, suspended: false)
        #expect(shared.next(now: start) == .hold, "a purge comes before adoption")
        #expect(shared.flushRequested(id: 1, now: start).isEmpty)
        shared.holdChanged(purging: false, suspended: false)
        #expect(shared.next(now: start) == .adopt, "the adoption held back by the purge")

        var own = TestMachine.make(at: start)
        own.backlogChanged(0)
        #expect(own.next(now: start) == .wait(until: nil), "a folder of its own adopts nothing and waits for input")
    }
}
