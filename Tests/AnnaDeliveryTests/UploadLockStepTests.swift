import Foundation
import Testing

@_spi(Generated) @testable import Anna

/// Issue 41, part 2: on a shared folder, taking the upload lock and trying again
/// after a pause are the upload machine's steps, not a loop of the driver's polling
/// every 5 ms and asking the machine each turn.
@Suite struct UploadLockStepTests {
    let start = ContinuousClock.now

    /// A shared folder's machine with a batch of three read.
    func sending() -> TestMachine {
        var machine = TestMachine.make(at: start, flushAt: 1, adoptsOrphans: true)
        machine.nextAdoption = start + .seconds(3600)
        machine.backlogChanged(3)
        #expect(machine.step(now: start).isRead)
        _ = machine.batchRead(count: 3, now: start)
        return machine
    }

    @Test func aBusyLockIsTriedAgainAfterGrowingPausesThenTheAttemptFails() {
        var machine = sending()
        #expect(machine.step(now: start) == .takeUploadLock)
        var now = start
        var pauses: [Duration] = []
        while true {
            let effects = machine.uploadLockBusy(now: now)
            if !effects.isEmpty {
                #expect(effects.contains { if case .countRetry = $0 { true } else { false } }, "a failed attempt")
                break
            }
            guard case .wait(let until?) = machine.step(now: now) else {
                Issue.record("a busy lock waits for a time")
                return
            }
            pauses.append(until - now)
            #expect(machine.step(now: until) == .takeUploadLock, "tried again when the pause is over")
            now = until
        }
        #expect(Array(pauses.prefix(6)) == [5, 10, 20, 40, 80, 160].map { Duration.milliseconds($0) })
        #expect(pauses.dropFirst(5).allSatisfy { $0 == .milliseconds(160) })
        #expect(now - start >= .seconds(16) && now - start < .seconds(17), "about one request's time, then it gives up")
        guard case .wait = machine.step(now: now) else {
            Issue.record("backing off after the failed attempt")
            return
        }
    }

    @Test func theLockIsTakenForOneRequestAndGivenBackAfterIt() {
        var machine = sending()
        #expect(machine.step(now: start) == .takeUploadLock)
        machine.uploadLockTaken()
        #expect(machine.step(now: start) == .send(0..<3))
        machine.uploadLockReleased()
        _ = machine.answered(.accepted, now: start)
        #expect(machine.step(now: start).isRead, "the next batch")
        _ = machine.batchRead(count: 2, now: start)
        #expect(machine.step(now: start) == .takeUploadLock, "each request takes it anew")
    }

    @Test func aHoldBetweenTakingTheLockAndSendingGivesItBackFirst() {
        var machine = sending()
        #expect(machine.step(now: start) == .takeUploadLock)
        machine.uploadLockTaken()
        _ = machine.suspendRequested(30)
        #expect(machine.step(now: start) == .releaseUploadLock, "no process waits on a lock a held uploader keeps")
        machine.uploadLockReleased()
        #expect(machine.step(now: start) == .releaseStorage, "then the storage")
        #expect(machine.storageReleased().compactMap(\.resumed) == [[30]])
    }

    @Test func aSegmentFolderOfItsOwnTakesNoLock() {
        var machine = TestMachine.make(at: start, flushAt: 1)
        machine.backlogChanged(3)
        _ = machine.step(now: start)
        _ = machine.batchRead(count: 3, now: start)
        #expect(machine.step(now: start) == .send(0..<3))
    }
}
