import Testing

@testable import Anna

/// Purges, suspensions and adoption as inputs and steps of the upload machine
/// (issues 22 and 34): the machine alone knows whether the uploader is held, owns
/// the callers waiting for it and the request in flight. Driven here with no thread,
/// sleep or clock.
@Suite struct UploadStateMachineHoldTests {
    let start = ContinuousClock.now

    /// A machine in the middle of a round: flush 1 waits, request 7 is in flight.
    func sending() -> TestMachine {
        var machine = TestMachine.make(at: start)
        _ = machine.flushRequested(1, now: start)
        #expect(machine.step(now: start).isRead)
        _ = machine.batchRead(count: 4, now: start)
        #expect(machine.step(now: start) == .send(0..<4))
        let started = machine.requestStarting(7, now: start)
        #expect(started)
        return machine
    }

    @Test func aPurgeHoldsCancelsTheRequestAbandonsTheBatchAndTheRoundStartsOverAfterIt() {
        var machine = sending()
        #expect(machine.purgeStarted(40).compactMap(\.cancelled) == [7], "the request in flight is cancelled")
        #expect(machine.isHeld)
        #expect(machine.answered(.accepted, now: start).isEmpty, "its late answer acknowledges nothing")
        #expect(machine.step(now: start).heldResuming == [40], "the purge goes on once no records are held")
        #expect(machine.flushRequested(2, now: start).isEmpty, "a flush during the purge waits for a round after it")
        #expect(machine.step(now: start).heldResuming == [], "still held")
        let started = machine.requestStarting(8, now: start)
        #expect(!started, "no request starts while held")

        machine.purgeEnded()
        #expect(machine.step(now: start).isRead, "the round reads again, after the purge")
        #expect(machine.batchRead(count: 0, now: start).compactMap(\.resumed) == [[1, 2]])
    }

    @Test func aSuspensionHoldsReleasesUntilResumeAndFlushesReturnAtOnce() {
        var machine = TestMachine.make(at: start, flushAt: 1)
        machine.backlogChanged(5)
        #expect(machine.suspendRequested(30).isEmpty, "nothing in flight to cancel; returns once released")
        #expect(machine.isSuspended && machine.isHeld)
        #expect(machine.step(now: start) == .releaseStorage, "a suspended app sends nothing and holds no records")
        #expect(machine.storageReleased().compactMap(\.resumed) == [[30]])
        #expect(machine.step(now: start).heldResuming == [])
        #expect(machine.flushRequested(1, now: start).compactMap(\.resumed) == [[1]], "nothing can be sent: at once")
        #expect(machine.suspendRequested(31).compactMap(\.resumed) == [[31]], "released already: at once")
        #expect(machine.resumeRequested(32).isEmpty, "returns once retaken")
        #expect(machine.step(now: start) == .retakeStorage)
        #expect(machine.storageRetaken(failure: nil).compactMap(\.resumed) == [[32]])
        #expect(!machine.isHeld)
        #expect(machine.step(now: start).isRead, "resume: the backlog is sent")
    }

    /// The old rule let a stop end the suspension's hold and relied on the released
    /// queue reading nothing in the last round. The machine now finishes at once.
    @Test func aStopDuringASuspensionFinishesWithoutARound() {
        var machine = TestMachine.make(at: start, flushAt: 1)
        machine.backlogChanged(5)
        _ = machine.suspendRequested(30)
        #expect(machine.step(now: start) == .releaseStorage)
        #expect(machine.storageReleased().compactMap(\.resumed) == [[30]])
        #expect(machine.stopRequested(20).isEmpty)
        #expect(machine.isHeld, "a stop does not end the suspension's hold")
        #expect(machine.step(now: start) == .finish(resuming: [20], retakingStorage: true), "no read of the released queue, no request")
        #expect(machine.stopRequested(21).compactMap(\.resumed) == [[21]], "a stop after the end returns at once")
        #expect(machine.purgeStarted(41).compactMap(\.resumed) == [[41]], "so does a purge")
    }

    @Test func aStopDuringAPurgeWaitsForItThenMakesItsLastRound() {
        var machine = sending()
        _ = machine.purgeStarted(40)
        #expect(machine.stopRequested(20).isEmpty)
        #expect(machine.step(now: start).heldResuming == [40], "a stop does not end a purge's hold")
        machine.purgeEnded()
        #expect(machine.step(now: start).isRead, "the last round, after the purge")
        _ = machine.batchRead(count: 0, now: start)
        #expect(machine.step(now: start).finishResuming == [20])
    }

    @Test func aSuspensionDuringAPurgeOutlastsIt() {
        var machine = sending()
        #expect(machine.purgeStarted(40).compactMap(\.cancelled) == [7])
        #expect(machine.suspendRequested(30).isEmpty, "the request was cancelled once, by the purge")
        #expect(machine.step(now: start) == .releaseStorage)
        #expect(machine.storageReleased().compactMap(\.resumed) == [[30]])
        #expect(machine.step(now: start).heldResuming == [40])
        machine.purgeEnded()
        #expect(machine.step(now: start).heldResuming == [], "still suspended")
        #expect(machine.resumeRequested(31).isEmpty)
        #expect(machine.step(now: start) == .retakeStorage)
        #expect(machine.storageRetaken(failure: nil).compactMap(\.resumed) == [[31]])
        #expect(machine.step(now: start).isRead)
    }

    /// The old driver resumed those waiting for a hold only when it saw the hold: a
    /// suspension that ended while a request was in flight left its caller waiting
    /// until the next hold or the end.
    @Test func aHoldThatEndsDuringARequestStillResumesItsCaller() {
        var machine = sending()
        #expect(machine.suspendRequested(30).compactMap(\.cancelled) == [7])
        #expect(machine.resumeRequested(31).compactMap(\.resumed) == [[30, 31]], "nothing was released: both return")
        #expect(machine.answered(.accepted, now: start).isEmpty, "the batch was abandoned: nothing acknowledged")
        #expect(machine.step(now: start).isRead, "the round starts over")
    }

    @Test func aStopFinishingResumesEveryoneStillWaiting() {
        var machine = TestMachine.make(at: start, adoptsOrphans: true)
        _ = machine.flushRequested(1, now: start)
        _ = machine.stopRequested(20)
        _ = machine.purgeStarted(40)
        _ = machine.suspendRequested(30)
        machine.purgeEnded()
        #expect(machine.step(now: start).finishResuming == [1, 40, 30, 20], "flushes, holds, suspensions, then stops")
        #expect(machine.step(now: start).finishResuming == [], "once")
    }

    /// Every order of stop, suspend, resume, purge (its start and end), flush and the
    /// completion of the request in flight (URLSession's, delivered on its own queue
    /// while the uploader thread waits): no request starts and no batch is read while
    /// held, a completion after a hold began is ignored and acknowledges nothing, the
    /// request in flight is cancelled at most once, and every caller is resumed exactly once.
    @Test func everyInterleavingOfHoldsStopsFlushesAndAnAnswerInFlight() {
        enum Event: CaseIterable { case stop, suspend, resume, purge, purgeEnd, flush, answer }
        var orders = 0
        for order in permutations(Event.allCases) {
            guard order.firstIndex(of: .suspend)! < order.firstIndex(of: .resume)!,
                order.firstIndex(of: .purge)! < order.firstIndex(of: .purgeEnd)!
            else { continue }
            orders += 1
            var machine = sending()
            var resumed: [UInt64] = []
            var cancelled: [Int] = []
            var acknowledged = 0
            var holdBegan = false
            var finished = false
            let label = "\(order)"
            func take(_ effects: [TestMachine.Effect]) {
                resumed += effects.compactMap(\.resumed).flatMap { $0 }
                cancelled += effects.compactMap(\.cancelled)
                acknowledged += effects.compactMap(\.acknowledged).count
            }
            // The uploader thread: steps until it blocks on a wait, a hold or the end.
            func settle() {
                guard !finished else { return }
                for _ in 0..<50 {
                    let held = machine.isHeld
                    let step = machine.step(now: start)
                    switch step {
                    case .read:
                        #expect(!held, "read while held: \(label)")
                        take(machine.batchRead(count: 0, now: start))
                    case .answer(let answer):
                        #expect(!held, "an answer taken while held: \(label)")
                        take(machine.answered(answer, now: start))
                    case .send, .takeUploadLock, .releaseUploadLock, .eraseUploadLease, .timedOut, .resumeAdoption:
                        Issue.record("nothing is read after the first batch, on a folder of its own, in no time: \(label)")
                        return
                    case .holdEnded(let waiters):
                        resumed += waiters
                    case .hold(let waiters):
                        resumed += waiters
                        return
                    case .finish(let waiters, _):
                        resumed += waiters
                        finished = true
                        return
                    case .persist:
                        take(machine.persisted(now: start))
                    case .releaseStorage:
                        take(machine.storageReleased())
                    case .retakeStorage:
                        take(machine.storageRetaken(failure: nil))
                    case .wait, .adopt:
                        return
                    }
                }
                Issue.record("the machine never blocks: \(label)")
            }
            settle()
            for event in order {
                switch event {
                case .stop: take(machine.stopRequested(20))
                case .suspend:
                    holdBegan = true
                    take(machine.suspendRequested(30))
                case .resume: take(machine.resumeRequested(31))
                case .purge:
                    holdBegan = true
                    take(machine.purgeStarted(40))
                case .purgeEnd: machine.purgeEnded()
                case .flush: take(machine.flushRequested(5, now: start))
                case .answer:
                    let wakes = machine.requestCompleted(7, answer: .accepted)
                    #expect(wakes == !holdBegan, "a completion after a hold began is ignored: \(label)")
                }
                #expect(!machine.isHeld || !machine.mayStartRequest, "\(label)")
                settle()
            }
            settle()
            #expect(finished, "the stop ends the machine once every hold is over: \(label)")
            let holdBeforeAnswer = order.prefix { $0 != .answer }.contains { $0 == .suspend || $0 == .purge }
            #expect(acknowledged == (holdBeforeAnswer ? 0 : 1), "acknowledged once, unless a hold came first: \(label)")
            #expect(cancelled == (holdBeforeAnswer ? [7] : []), "cancelled once, if a hold came first: \(label)")
            #expect(resumed.sorted() == [1, 5, 20, 30, 31, 40], "every caller exactly once: \(label)")
        }
        #expect(orders == 1260)
    }

    /// The request in flight, as the machine waits for it: its completion, its deadline,
    /// a stale completion, and what may not come between a request and its answer.
    @Test func aRequestInFlightIsAnsweredByItsCompletionOrTimesOutAtItsDeadline() {
        let timeout = TestMachine.make(at: start).configuration.requestTimeout
        var machine = sending()
        #expect(machine.step(now: start) == .wait(until: start + timeout), "waits for the answer until its deadline")
        #expect(!machine.mayStartRequest, "one request of a batch at a time")
        let otherWakes = machine.requestCompleted(6, answer: .accepted)
        #expect(!otherWakes, "another request's completion is ignored")
        #expect(machine.step(now: start) == .wait(until: start + timeout))
        let ownWakes = machine.requestCompleted(7, answer: .tooLarge)
        #expect(ownWakes, "its own wakes the driver")
        let secondWakes = machine.requestCompleted(7, answer: .accepted)
        #expect(!secondWakes, "once")
        #expect(machine.step(now: start) == .answer(.tooLarge), "the driver takes the answer")
        #expect(machine.answered(.tooLarge, now: start).isEmpty, "split in halves")
        #expect(machine.step(now: start) == .send(0..<2))

        let late = start + .seconds(1)
        let started8 = machine.requestStarting(8, now: late)
        #expect(started8)
        #expect(machine.step(now: late + timeout) == .timedOut(8, records: 2), "no whole answer by the deadline, for the 2 records sent")
        let lateWakes = machine.requestCompleted(8, answer: .accepted)
        #expect(!lateWakes, "the timed-out request's late completion is ignored")
        let effects = machine.answered(.failed(status: nil, message: "timeout", retryAfter: nil), now: late + timeout)
        #expect(effects.contains { $0.reported != nil }, "reported, and backed off like any failed attempt")
        #expect(machine.step(now: late + timeout).waitDeadline != nil)
    }

    @Test func nothingComesBetweenARequestAndItsAnswerButAHoldOrAStop() {
        // Adoption due, the path gone, the upload lock held: all wait for the answer.
        var machine = TestMachine.make(at: start, flushInterval: .seconds(5), adoptsOrphans: true)
        #expect(machine.step(now: start) == .adopt)
        _ = machine.adopted(now: start)
        _ = machine.flushRequested(1, now: start)
        #expect(machine.step(now: start) == .adopt, "a flush adopts first")
        _ = machine.adopted(now: start)
        #expect(machine.step(now: start).isRead)
        _ = machine.batchRead(count: 3, now: start)
        #expect(machine.step(now: start) == .takeUploadLock)
        machine.uploadLockTaken()
        #expect(machine.step(now: start) == .send(0..<3))
        let started7 = machine.requestStarting(7, now: start)
        #expect(started7)
        _ = machine.pathChanged(.unreachable)
        let later = start + .seconds(6)
        let deadline = start + machine.configuration.requestTimeout
        #expect(later < deadline)
        #expect(machine.step(now: later) == .wait(until: deadline),
            "no adoption, no lock release, no round end while the request is in flight")
        let answerWakes = machine.requestCompleted(7, answer: .accepted)
        #expect(answerWakes)
        #expect(machine.step(now: later) == .answer(.accepted))
        machine.uploadLockReleased()
        let effects = machine.answered(.accepted, now: later)
        #expect(effects.compactMap(\.acknowledged).map(\.delivered) == [3], "its answer counts")
        #expect(machine.step(now: later) == .adopt, "then what waited")
    }

    @Test func aSharedFolderAdoptsAtStartEveryIntervalAndBeforeAFlushRound() {
        var machine = TestMachine.make(at: start, flushInterval: .seconds(30), adoptsOrphans: true)
        #expect(machine.step(now: start) == .adopt, "at start")
        #expect(machine.adopted(now: start).isEmpty)
        #expect(machine.step(now: start) == .wait(until: start + .seconds(30)), "the next adoption bounds the wait")
        #expect(machine.step(now: start + .seconds(30)) == .adopt, "every interval")
        _ = machine.adopted(now: start + .seconds(30))

        let later = start + .seconds(31)
        #expect(machine.flushRequested(9, now: later).isEmpty)
        #expect(machine.step(now: later) == .adopt, "a flush's round waits for an adoption, so it sends what was adopted")
        #expect(machine.adopted(now: later).isEmpty)
        #expect(machine.step(now: later).isRead, "then the flush's round")
        #expect(machine.batchRead(count: 0, now: later).compactMap(\.resumed) == [[9]])
    }

    @Test func noAdoptionWhileHeldNorWithoutASharedFolder() {
        var shared = TestMachine.make(at: start, adoptsOrphans: true)
        _ = shared.purgeStarted(40)
        #expect(shared.step(now: start).heldResuming == [40], "a purge comes before adoption")
        #expect(shared.flushRequested(1, now: start).isEmpty)
        shared.purgeEnded()
        #expect(shared.step(now: start) == .adopt, "the adoption held back by the purge")

        var own = TestMachine.make(at: start)
        own.backlogChanged(0)
        #expect(own.step(now: start) == .wait(until: nil), "a folder of its own adopts nothing and waits for input")
    }
}

/// Every order of `elements` (Heap's algorithm).
private func permutations<Element>(_ elements: [Element]) -> [[Element]] {
    var result: [[Element]] = []
    var items = elements
    func generate(_ count: Int) {
        guard count > 1 else {
            result.append(items)
            return
        }
        for index in 0..<count {
            generate(count - 1)
            items.swapAt(count.isMultiple(of: 2) ? index : 0, count - 1)
        }
    }
    generate(items.count)
    return result
}
