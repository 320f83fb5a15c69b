import Foundation
import Testing

@_spi(Generated) @testable import Anna

/// A random source that always returns the same value: `.max` makes full jitter
/// pick the top of its range, so backoff ceilings can be read off exactly; `1`, the
/// bottom (`0` would make `next(upperBound:)` reject it for ever).
struct FixedRandom: RandomNumberGenerator {
    var value: UInt64 = .max
    mutating func next() -> UInt64 { value }
}

/// Waiters are numbers, requests too: the machine only hands them back.
typealias TestMachine = UploadStateMachine<FixedRandom, UInt64, Int>

extension TestMachine {
    static func make(
        at now: ContinuousClock.Instant, flushAt: Int = 1000, flushInterval: Duration = .seconds(3600),
        maxRejectedInARow: Int = 50, random: FixedRandom = FixedRandom(), adoptsOrphans: Bool = false
    ) -> Self {
        let configuration = DurableProvider.Configuration(
            flushAt: flushAt, flushInterval: flushInterval, initialRetryDelay: .seconds(1), maxRetryDelay: .seconds(8),
            maxRetryAfter: .seconds(100), maxRejectedInARow: maxRejectedInARow)
        return Self(configuration: .init(configuration, adoptsOrphans: adoptsOrphans), random: random, now: now)
    }

    /// The next step, with the persist step a flush or a stop begins with done
    /// (``UploadStateMachine/Step/persist``): the tests of rounds start after it.
    /// What the persist step resumes is checked to be nothing; tests of that call
    /// ``next(now:)`` and ``persisted(now:)`` themselves.
    mutating func step(now: ContinuousClock.Instant) -> Step {
        let step = next(now: now)
        guard case .persist = step else { return step }
        let effects = persisted(now: now)
        #expect(effects.isEmpty, "the persist step resumed someone: \(effects.compactMap(\.resumed))")
        return next(now: now)
    }

    /// `flush()` with its persist step done: what the flush's call and the persist
    /// step resumed.
    mutating func flushPersisting(_ waiter: UInt64, now: ContinuousClock.Instant) -> [Effect] {
        let effects = flushRequested(waiter, now: now)
        guard case .persist = next(now: now) else {
            Issue.record("a flush begins with the persist step")
            return effects
        }
        return effects + persisted(now: now)
    }

    /// Runs a round over `count` records answered by `answer` (per range sent)
    /// and returns the ranges sent and every effect, until the machine waits or reads again.
    mutating func sendBatch(
        of count: Int, at now: ContinuousClock.Instant, answer: (Range<Int>) -> Answer
    ) -> (sent: [Range<Int>], effects: [Effect]) {
        var sent: [Range<Int>] = []
        var effects: [Effect] = []
        guard case .read = step(now: now) else { return (sent, effects) }
        effects += batchRead(count: count, now: now)
        while case .send(let range) = step(now: now) {
            sent.append(range)
            effects += answered(answer(range), now: now)
        }
        return (sent, effects)
    }
}

extension UploadStateMachine.Effect where Waiter == UInt64, Request == Int {
    var acknowledged: (range: Range<Int>, delivered: Int, rejected: Int, tooLarge: Int)? {
        if case .acknowledge(let range, let delivered, let rejected, let tooLarge) = self {
            return (range, delivered, rejected, tooLarge)
        }
        return nil
    }

    var resumed: [UInt64]? {
        if case .resume(let ids) = self { return ids }
        return nil
    }

    var cancelled: Int? {
        if case .cancel(let request) = self { return request }
        return nil
    }

    var reported: DeliveryError? {
        if case .report(let error) = self { return error }
        return nil
    }
}

extension UploadStateMachine.Step {
    var waitDeadline: ContinuousClock.Instant?? {
        if case .wait(let until) = self { return .some(until) }
        return nil
    }
}

@Suite struct UploadStateMachineTests {
    let start = ContinuousClock.now

    @Test func uploadsStartOnCountOnIntervalOnFlushAndOnStop() {
        var machine = TestMachine.make(at: start, flushAt: 10, flushInterval: .seconds(30))
        #expect(machine.step(now: start) == .wait(until: nil), "nothing waits")
        machine.backlogChanged(3)
        #expect(machine.step(now: start) == .wait(until: start + .seconds(30)), "the interval's deadline")
        #expect(machine.step(now: start + .seconds(30)) == .read(maxRecords: 500, maxBytes: 500_000 - 64 - 500))
        #expect(machine.batchRead(count: 0, now: start + .seconds(30)).isEmpty)

        machine.backlogChanged(10)
        #expect(machine.step(now: start + .seconds(31)) != .wait(until: start + .seconds(60)), "the count")
        _ = machine.batchRead(count: 0, now: start + .seconds(31))

        #expect(machine.flushRequested(7, now: start + .seconds(32)).isEmpty)
        #expect(machine.step(now: start + .seconds(32)).isRead)
        #expect(machine.batchRead(count: 0, now: start + .seconds(32)).compactMap(\.resumed) == [[7]])

        _ = machine.stopRequested(99)
        #expect(machine.step(now: start + .seconds(33)).isRead, "stop makes a last attempt")
        _ = machine.batchRead(count: 0, now: start + .seconds(33))
        #expect(machine.step(now: start + .seconds(33)).isFinish)
    }

    /// Defect 4: a flush called while a round is ending waited only for that round,
    /// which may have read the queue before the flush's events were persisted.
    @Test func flushWaitsForARoundThatStartedAfterIt() {
        var machine = TestMachine.make(at: start)
        #expect(machine.flushRequested(1, now: start).isEmpty)
        #expect(machine.step(now: start).isRead)
        _ = machine.batchRead(count: 2, now: start)
        #expect(machine.step(now: start) == .send(0..<2))
        // Flush 2 arrives while the round is under way, after its reads began.
        #expect(machine.flushRequested(2, now: start).isEmpty)
        let acknowledged = machine.answered(.accepted, now: start)
        #expect(acknowledged.compactMap(\.acknowledged).map(\.range) == [0..<2])
        #expect(machine.step(now: start).isRead)
        let firstRoundEnd = machine.batchRead(count: 0, now: start)
        #expect(firstRoundEnd.compactMap(\.resumed) == [[1]], "only the flush that came before the round")
        #expect(machine.step(now: start).isRead, "another round for flush 2")
        #expect(machine.batchRead(count: 0, now: start).compactMap(\.resumed) == [[2]])
        #expect(machine.step(now: start) == .wait(until: nil))
    }

    @Test func failuresBackOffWithFullJitterDoublingUpToTheCap() {
        var machine = TestMachine.make(at: start)
        machine.backlogChanged(1)
        var now = start
        var ceilings: [Duration] = []
        for _ in 0..<6 {
            _ = machine.flushRequested(0, now: now)
            let (sent, effects) = machine.sendBatch(of: 1, at: now) { _ in .failed(status: 503, message: "down", retryAfter: nil) }
            #expect(sent == [0..<1])
            #expect(effects.contains { if case .countRetry = $0 { true } else { false } })
            #expect(effects.compactMap(\.resumed) == [[0]], "a failed attempt releases flush")
            guard case .wait(let until?) = machine.step(now: now) else {
                Issue.record("no backoff")
                return
            }
            ceilings.append(until - now)
            #expect(machine.flushRequested(9, now: now).isEmpty, "flush persists first")
            #expect(machine.next(now: now) == .persist)
            #expect(machine.persisted(now: now).compactMap(\.resumed) == [[9]], "then returns while backing off")
            now = until
        }
        let seconds = ceilings.map { Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18 }
        for (measured, expected) in zip(seconds, [1.0, 2, 4, 8, 8, 8]) {
            #expect(abs(measured - expected) < 0.01, "\(seconds)")
        }
        // Full jitter: the low end of the range is reachable too.
        var low = TestMachine.make(at: start, random: FixedRandom(value: 1))
        _ = low.flushRequested(0, now: start)
        _ = low.sendBatch(of: 1, at: start) { _ in .failed(status: nil, message: "refused", retryAfter: nil) }
        #expect(low.step(now: start).isRead, "a zero draw retries at once")
    }

    /// Defect 6: `Retry-After: 0`, negative, or a past date meant an immediate retry.
    @Test func retryAfterIsHonouredButNeverBelowTheBackoffCeiling() {
        for (retryAfter, expected) in [(0.0, 1.0), (-30, 1), (0.2, 1), (30, 30), (7200, 100)] {
            var machine = TestMachine.make(at: start, random: FixedRandom(value: 1))
            _ = machine.flushRequested(0, now: start)
            let (_, effects) = machine.sendBatch(of: 3, at: start) { _ in
                .failed(status: 429, message: "slow down", retryAfter: retryAfter)
            }
            let delays = effects.compactMap(\.reported).compactMap { error -> TimeInterval? in
                if error.code == .retrying, error.status == 429, let delay = error.delay { return delay }
                return nil
            }
            #expect(delays == [expected], "Retry-After \(retryAfter)")
            #expect(machine.step(now: start + .seconds(expected) - .milliseconds(1)).waitDeadline != nil)
            #expect(machine.step(now: start + .seconds(expected)).isRead)
        }
        // A past HTTP date parses to zero, then gets the floor above.
        #expect(CollectorTransport.Answer.parseRetryAfter("Sun, 06 Nov 1994 08:49:37 GMT", now: Date()) == 0)
        #expect(CollectorTransport.Answer.parseRetryAfter("-5") == 0)
    }

    /// Defect 11: a 400 dropped its whole batch.
    @Test func a400SplitsUntilTheRefusedEventIsAloneAndOnlyItIsDropped() {
        var machine = TestMachine.make(at: start)
        _ = machine.flushRequested(0, now: start)
        let (sent, effects) = machine.sendBatch(of: 8, at: start) { range in
            range.contains(5) ? .rejected(status: 400, body: "bad event 5") : .accepted
        }
        #expect(sent == [0..<8, 0..<4, 4..<8, 4..<6, 4..<5, 5..<6, 6..<8])
        let acknowledged = effects.compactMap(\.acknowledged)
        #expect(acknowledged.map(\.range) == [0..<4, 4..<5, 5..<8], "in queue order, none skipped")
        #expect(acknowledged.map(\.delivered).reduce(0, +) == 7)
        #expect(acknowledged.map(\.rejected).reduce(0, +) == 1)
        let reports = effects.compactMap(\.reported)
        #expect(reports.count == 1)
        if let first = reports.first, first.code == .rejected, first.status == 400, first.events == 1, first.response == "bad event 5" {} else { Issue.record("\(reports)") }
        #expect(machine.rejectedInARow == 0, "a 2xx after it ends the run")
    }

    @Test func a413SplitsAndDropsALoneEventAsTooLarge() {
        var machine = TestMachine.make(at: start)
        _ = machine.flushRequested(0, now: start)
        let (sent, effects) = machine.sendBatch(of: 3, at: start) { range in range.count > 1 ? .tooLarge : .accepted }
        #expect(sent == [0..<3, 0..<1, 1..<3, 1..<2, 2..<3])
        #expect(effects.compactMap(\.acknowledged).map(\.delivered) == [1, 1, 1])

        var alone = TestMachine.make(at: start)
        _ = alone.flushRequested(0, now: start)
        let (_, dropped) = alone.sendBatch(of: 1, at: start) { _ in .tooLarge }
        #expect(dropped.compactMap(\.acknowledged).map(\.tooLarge) == [1], "dropped at the end of its batch")
        #expect(alone.step(now: start).isRead, "then the round reads on")
    }

    /// Defect 11: a collector answering 400 to everything must not wipe the backlog.
    @Test func aRunOf400sKeepsTheDataAndBacksOff() {
        var machine = TestMachine.make(at: start, maxRejectedInARow: 4)
        _ = machine.flushRequested(0, now: start)
        let (sent, effects) = machine.sendBatch(of: 16, at: start) { _ in .rejected(status: 400, body: "no") }
        #expect(sent.filter { $0.count == 1 }.count == 4, "four lone events, then the run ends the round")
        #expect(effects.compactMap(\.acknowledged).isEmpty, "nothing acknowledged: all 16 stay queued")
        #expect(effects.compactMap(\.reported).contains {
            $0.code == .collectorRejectsEverything && $0.status == 400 && $0.inARow == 4
        })
        #expect(machine.step(now: start).waitDeadline != nil, "backing off")

        // After the backoff the run is still on: the first lone 400 backs off again.
        guard case .wait(let until?) = machine.step(now: start) else { return }
        let (_, again) = machine.sendBatch(of: 16, at: until) { _ in .rejected(status: 400, body: "no") }
        #expect(again.compactMap(\.acknowledged).isEmpty)
        #expect(machine.rejectedInARow == 5)

        // A 2xx ends the run.
        guard case .wait(let later?) = machine.step(now: until) else { return }
        _ = machine.sendBatch(of: 2, at: later) { _ in .accepted }
        #expect(machine.rejectedInARow == 0)
    }

    @Test func aLoneRejectedEventIsHeldUntilTheBatchEnds() {
        // 3 lone rejections, under a run of 4: dropped at the batch's end, in one acknowledgement.
        var machine = TestMachine.make(at: start, maxRejectedInARow: 4)
        _ = machine.flushRequested(0, now: start)
        let (_, effects) = machine.sendBatch(of: 3, at: start) { _ in .rejected(status: 400, body: "no") }
        let acknowledged = effects.compactMap(\.acknowledged)
        #expect(acknowledged.map(\.range) == [0..<3] && acknowledged.map(\.rejected) == [3])
        #expect(machine.rejectedInARow == 3, "the run goes on across batches until a 2xx")
    }

    /// Defect 3: a redirect was followed; now it is a failure, retried with backoff.
    @Test func aRedirectIsAFailureNotAnAcceptance() {
        for status in [301, 302, 303, 307, 308] {
            var machine = TestMachine.make(at: start)
            _ = machine.flushRequested(0, now: start)
            let (_, effects) = machine.sendBatch(of: 5, at: start) { _ in
                .redirected(status: status, location: "https://elsewhere.example/v1/batch")
            }
            #expect(effects.compactMap(\.acknowledged).isEmpty)
            #expect(effects.contains { if case .countRetry = $0 { true } else { false } })
            #expect(effects.compactMap(\.reported).contains {
                $0.code == .retrying && $0.status == status && $0.message?.contains("not followed") == true
            })
            #expect(machine.step(now: start).waitDeadline != nil)
        }
        let response = CollectorTransport.Response(status: 307, location: "http://x/", retryAfter: nil, body: Data(), error: nil)
        if case .redirected(307, "http://x/") = CollectorTransport.Answer(response) {} else { Issue.record("not a redirect") }
    }

    /// Defect 9 (the machine's half): records read before a purge are never sent.
    @Test func aPurgeAbandonsTheBatchAndTheRoundStartsOver() {
        var machine = TestMachine.make(at: start)
        _ = machine.flushRequested(1, now: start)
        #expect(machine.step(now: start).isRead)
        _ = machine.batchRead(count: 4, now: start)
        #expect(machine.step(now: start) == .send(0..<4))
        machine.abandonBatch()
        #expect(machine.answered(.accepted, now: start).isEmpty, "a late answer acknowledges nothing")
        #expect(machine.step(now: start).isRead, "the round reads again, after the purge")
        #expect(machine.batchRead(count: 0, now: start).compactMap(\.resumed) == [[1]], "and covers the flush")
    }

    @Test func stopWhileBackingOffFinishesWithoutAnAttempt() {
        var machine = TestMachine.make(at: start)
        _ = machine.flushRequested(0, now: start)
        _ = machine.sendBatch(of: 1, at: start) { _ in .failed(status: 500, message: "", retryAfter: nil) }
        _ = machine.stopRequested(99)
        #expect(machine.step(now: start).isFinish)
        #expect(machine.flushRequested(3, now: start).compactMap(\.resumed) == [[3]], "flush after the end returns")
    }

    @Test func stopDuringARoundWaitsForARoundThatStartedAfterIt() {
        var machine = TestMachine.make(at: start)
        _ = machine.flushRequested(0, now: start)
        #expect(machine.step(now: start).isRead)
        _ = machine.stopRequested(99)
        _ = machine.batchRead(count: 0, now: start)
        #expect(machine.step(now: start).isRead, "a last round that covers what was persisted before stop")
        _ = machine.batchRead(count: 0, now: start)
        #expect(machine.step(now: start).isFinish)
    }

    /// Defect 7: timers ran on `Date()`, so a wall clock set back stalled uploads. The
    /// machine reads no clock at all: the same inputs a million seconds later (or a
    /// month of wall-clock corrections either way) give the same steps.
    @Test func timersDependOnlyOnTheMonotonicTimeGiven() {
        func trace(from origin: ContinuousClock.Instant) -> [String] {
            var machine = TestMachine.make(at: origin, flushAt: 100, flushInterval: .seconds(10))
            var steps: [String] = []
            machine.backlogChanged(2)
            if case .wait(let until?) = machine.step(now: origin + .seconds(5)) { steps.append("wait \(until - origin)") }
            let read = machine.step(now: origin + .seconds(10))
            steps.append(read.isRead ? "read" : "no read")
            _ = machine.batchRead(count: 2, now: origin + .seconds(10))
            _ = machine.step(now: origin + .seconds(10))
            _ = machine.answered(.failed(status: 503, message: "", retryAfter: nil), now: origin + .seconds(10))
            if case .wait(let until?) = machine.step(now: origin + .seconds(10)) {
                steps.append("backoff \(until - origin)")
                steps.append(machine.step(now: until - .milliseconds(1)).isRead ? "early" : "waits")
                steps.append(machine.step(now: until).isRead ? "retries" : "stalled")
            }
            return steps
        }
        let near = trace(from: start)
        let far = trace(from: start + .seconds(1_000_000))
        #expect(near.count == 5 && near == far, "\(near) vs \(far)")
        #expect(near.suffix(2) == ["waits", "retries"])
    }
}

extension UploadStateMachine.Step where Waiter == UInt64 {
    var isRead: Bool {
        if case .read = self { return true }
        return false
    }

    var isFinish: Bool {
        if case .finish = self { return true }
        return false
    }

    /// The waiters a hold resumes; `nil` when not holding.
    var heldResuming: [UInt64]? {
        if case .hold(let waiters) = self { return waiters }
        return nil
    }

    /// The waiters finishing resumes; `nil` when not finishing.
    var finishResuming: [UInt64]? {
        if case .finish(let waiters, _) = self { return waiters }
        return nil
    }
}
