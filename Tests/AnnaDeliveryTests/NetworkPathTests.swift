import Foundation
import Testing

@testable import Anna

/// The network path as an input of the upload state machine: no attempt without a
/// path, an attempt as soon as one returns. No thread, sleep or clock: time is
/// instants handed in.
@Suite struct NetworkPathTests {
    let start = ContinuousClock.now

    @Test func noRoundStartsWhileUnreachableAndOneStartsWhenAPathReturns() {
        var machine = TestMachine.make(at: start, flushAt: 5, flushInterval: .seconds(30))
        #expect(machine.pathChanged(.unreachable).isEmpty)
        machine.backlogChanged(50)
        #expect(machine.step(now: start) == .wait(until: nil), "no attempt, and no timer: only an input wakes it")
        #expect(machine.step(now: start + .seconds(3600)) == .wait(until: nil), "however long it waits")
        #expect(machine.flushPersisting(1, now: start).compactMap(\.resumed) == [[1]], "a flush returns once persisted")
        _ = machine.pathChanged(.reachable)
        #expect(machine.step(now: start + .seconds(3600)).isRead, "at once when back")
    }

    @Test func aBackoffTheOutageCausedEndsWhenThePathReturns() {
        var machine = TestMachine.make(at: start, flushAt: 1)
        machine.backlogChanged(3)
        var now = start
        // The device lost its network before the app heard of it: attempts reach no server.
        var backoff = start
        for attempt in 0..<3 {
            let (sent, _) = machine.sendBatch(of: 3, at: now) { _ in .failed(status: nil, message: "offline", retryAfter: nil) }
            #expect(sent == [0..<3], "attempt \(attempt)")
            guard case .wait(let until?) = machine.step(now: now) else {
                Issue.record("backing off after attempt \(attempt)")
                return
            }
            backoff = until
            if attempt < 2 { now = until }
        }
        #expect(machine.failures == 3 && backoff > now)
        _ = machine.pathChanged(.unreachable)
        #expect(machine.step(now: now) == .wait(until: nil))
        _ = machine.pathChanged(.reachable)
        #expect(machine.step(now: now).isRead, "the path returned before \(backoff): no waiting it out")
        #expect(machine.failures == 0, "the next failure starts from the first delay")
    }

    @Test func aBackoffTheCollectorAskedForStandsWhenThePathReturns() {
        var machine = TestMachine.make(at: start, flushAt: 1)
        machine.backlogChanged(3)
        _ = machine.sendBatch(of: 3, at: start) { _ in .failed(status: 503, message: "busy", retryAfter: 60) }
        let step = machine.step(now: start)
        #expect(step == .wait(until: start + .seconds(60)))
        _ = machine.pathChanged(.unreachable)
        _ = machine.pathChanged(.reachable)
        #expect(machine.step(now: start + .seconds(1)) == step, "Retry-After is the server's word, not the network's")
    }

    @Test func aRoundUnderWayEndsAfterItsRequestWhenThePathGoes() {
        var machine = TestMachine.make(at: start, flushAt: 1)
        machine.backlogChanged(10)
        #expect(machine.flushRequested(4, now: start).isEmpty)
        #expect(machine.step(now: start).isRead)
        _ = machine.batchRead(count: 10, now: start)
        #expect(machine.step(now: start) == .send(0..<10))
        #expect(machine.pathChanged(.unreachable).compactMap(\.resumed) == [[4]], "the flush returns")
        // The request in flight still ends: its events are acknowledged.
        let effects = machine.answered(.accepted, now: start)
        #expect(effects.compactMap(\.acknowledged).map(\.range) == [0..<10])
        #expect(machine.step(now: start) == .wait(until: nil), "no read for the rest of the round")
        machine.backlogChanged(2)
        _ = machine.pathChanged(.reachable)
        #expect(machine.step(now: start).isRead, "the interrupted round resumes")
    }

    @Test func stopWhileUnreachableFinishesWithoutALastAttempt() {
        var machine = TestMachine.make(at: start)
        machine.backlogChanged(5)
        _ = machine.pathChanged(.unreachable)
        _ = machine.stopRequested(99)
        #expect(machine.step(now: start).isFinish)
    }

    @Test func anExpensivePathHoldsABacklogBeyondTheLimit() {
        var configuration = DurableProvider.Configuration(flushAt: 1, maxBacklogOnExpensivePath: 100)
        configuration.flushInterval = .seconds(30)
        var machine = TestMachine(configuration: .init(configuration), random: FixedRandom(), now: start)
        let cellular = NetworkPath(isReachable: true, isExpensive: true)
        _ = machine.pathChanged(cellular)
        machine.backlogChanged(20)
        #expect(machine.step(now: start).isRead, "a trickle goes out on cellular")
        _ = machine.batchRead(count: 0, now: start)
        machine.backlogChanged(2_000)
        #expect(machine.step(now: start) == .wait(until: nil), "a backlog from offline waits for another path")
        #expect(machine.flushPersisting(1, now: start).compactMap(\.resumed) == [[1]])
        _ = machine.pathChanged(NetworkPath(isReachable: true, isConstrained: true))
        #expect(machine.step(now: start) == .wait(until: nil), "Low Data Mode holds it too")
        _ = machine.pathChanged(.reachable)
        #expect(machine.step(now: start).isRead, "Wi-Fi")

        var unlimited = TestMachine(
            configuration: .init(DurableProvider.Configuration(flushAt: 1)), random: FixedRandom(), now: start)
        _ = unlimited.pathChanged(cellular)
        unlimited.backlogChanged(2_000)
        #expect(unlimited.next(now: start).isRead, "no limit by default")
    }

    @Test func pathsDescribeThemselves() {
        #expect(NetworkPath.reachable.description == "reachable")
        #expect(NetworkPath.unreachable.description == "unreachable")
        #expect(NetworkPath(isReachable: true, isExpensive: true, isConstrained: true).description
            == "reachable (expensive, constrained)")
    }
}
