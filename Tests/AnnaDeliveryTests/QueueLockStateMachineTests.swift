import Foundation
import Testing

@testable import Anna

/// Every decision about a queue's lock, without threads, sleeps or files.
struct QueueLockStateMachineTests {
    let start = ContinuousClock.now

    @Test func whileRunningHoldsTheLockFromStartToSuspension() {
        var machine = QueueLockStateMachine(policy: .whileRunning)
        #expect(machine.operationStarting() == .proceed)
        #expect(!machine.shouldRelease(), "an app keeps the lock between operations")
        machine.suspend()
        #expect(machine.phase == .suspended)
        #expect(machine.operationStarting() == .unavailable, "suspended: no disk at all")
        #expect(machine.shouldResume())
        #expect(machine.lockTaken(diskMatchesMemory: false) == .recover)
        #expect(machine.operationStarting() == .proceed)
    }

    @Test func aroundIOGivesTheLockUpAfterEveryOperation() {
        var machine = QueueLockStateMachine(policy: .aroundIO)
        #expect(machine.operationStarting() == .proceed, "the initializer's lock serves the recovery")
        #expect(machine.shouldRelease())
        machine.released()
        #expect(machine.phase == .idle)
        #expect(!machine.shouldRelease(), "nothing to give up while idle")
        #expect(machine.operationStarting() == .take, "the next operation takes it back")
        #expect(machine.lockTaken(diskMatchesMemory: true) == .useMemory)
        #expect(machine.phase == .held && machine.shouldRelease())
    }

    @Test func aFolderChangedWhileIdleIsRecovered() {
        var machine = QueueLockStateMachine(policy: .aroundIO)
        machine.released()
        #expect(machine.operationStarting() == .take)
        #expect(machine.lockTaken(diskMatchesMemory: false) == .recover, "another process adopted or wrote meanwhile")
    }

    @Test func aBriefConflictIsWaitedOutThenTheQueueMoves() {
        var machine = QueueLockStateMachine(policy: .aroundIO, patience: .milliseconds(200), retryDelay: .milliseconds(2))
        machine.released()
        #expect(machine.lockConflict(now: start, canReclaim: true) == .retry(at: start + .milliseconds(2)))
        #expect(machine.lockConflict(now: start + .milliseconds(199), canReclaim: true) == .retry(at: start + .milliseconds(201)))
        #expect(machine.lockConflict(now: start + .milliseconds(200), canReclaim: true) == .reclaim)
        // A new conflict later starts a new wait.
        #expect(machine.lockConflict(now: start + .seconds(5), canReclaim: true) == .retry(at: start + .seconds(5) + .milliseconds(2)))
        #expect(machine.lockTaken(diskMatchesMemory: false) == .recover)
        #expect(machine.lockConflict(now: start + .seconds(6), canReclaim: true) == .retry(at: start + .seconds(6) + .milliseconds(2)),
            "taking the lock ended the earlier run of conflicts")
    }

    @Test func withoutAnotherQueueALongConflictFailsTheOperation() {
        var machine = QueueLockStateMachine(policy: .aroundIO, patience: .milliseconds(100))
        machine.released()
        _ = machine.lockConflict(now: start, canReclaim: false)
        #expect(machine.lockConflict(now: start + .milliseconds(100), canReclaim: false) == .giveUp)
        #expect(machine.phase == .idle)
        #expect(machine.operationStarting() == .take, "the next operation tries again")
        machine.lockFailed()
        #expect(machine.lockConflict(now: start + .seconds(1), canReclaim: false) != .giveUp)
    }

    @Test func suspensionWinsOverTheIdleState() {
        var machine = QueueLockStateMachine(policy: .aroundIO)
        machine.released()
        #expect(machine.isActive, "idle, a suspension still writes what is buffered first")
        machine.suspend()
        #expect(machine.phase == .suspended && machine.operationStarting() == .unavailable)
        machine.released()
        #expect(machine.phase == .suspended, "a late release after an operation does not undo it")
        machine.suspend()
        #expect(machine.phase == .suspended)
        machine.close()
        #expect(machine.operationStarting() == .unavailable && !machine.shouldResume())
    }
}

/// The lease an `.aroundIO` uploader writes in `upload.lock`.
struct UploadLeaseTests {
    @Test func aLiveLeaseOfAnotherProcessBlocks() {
        let holder = UploadLease.Holder(process: 42, folder: 1)
        let other = UploadLease.Holder(process: 7, folder: 1)
        let lease = UploadLease(holder: holder, expiry: 10_000_000_000)
        #expect(lease.blocks(other, now: 9_000_000_000, longest: .seconds(16)))
        #expect(!lease.blocks(holder, now: 9_000_000_000, longest: .seconds(16)), "never its own")
        #expect(lease.blocks(UploadLease.Holder(process: 42, folder: 2), now: 9_000_000_000, longest: .seconds(16)),
            "another folder of the same process: two providers on one shared folder")
        #expect(!lease.blocks(other, now: 10_000_000_000, longest: .seconds(16)), "expired")
        #expect(!lease.blocks(other, now: 1_000_000, longest: .seconds(5)),
            "ending further away than a lease lasts: written before a reboot")
    }

    @Test func leasesRoundTripAndAnythingElseIsNone() {
        let lease = UploadLease(holder: .init(process: 123_456, folder: 0x0123_4567_89AB_CDEF), expiry: 0xDEAD_BEEF_0000_0001)
        #expect(UploadLease(decoding: lease.encoded) == lease)
        #expect(UploadLease(decoding: []) == nil)
        #expect(UploadLease(decoding: Array(lease.encoded.dropLast())) == nil)
        #expect(UploadLease.now() > 0)
    }
}

/// What protection and backup each of Anna's files gets (applied on Apple platforms).
struct StorageFileAttributesTests {
    @Test func everyFileIsReadableInTheBackgroundAfterFirstUnlock() {
        for kind in StorageFileKind.allCases {
            #expect(StorageFileAttributes.of(kind).protectsUntilFirstUnlock, "\(kind)")
        }
    }

    @Test func queuesAreExcludedFromBackupsAndTheIdentityIsNot() {
        #expect(StorageFileAttributes.of(.queueDirectory).isExcludedFromBackup)
        #expect(StorageFileAttributes.of(.sharedQueues).isExcludedFromBackup)
        #expect(!StorageFileAttributes.of(.identity).isExcludedFromBackup, "consent and opt-out survive a restore")
        #expect(!StorageFileAttributes.of(.identityDirectory).isExcludedFromBackup)
        // Inside an excluded directory: exclusion is the directory's.
        #expect(!StorageFileAttributes.of(.segment).isExcludedFromBackup)
    }

    @Test func aLockFileIsCreatedOnceAndOpenedAfter() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.url.appendingPathComponent("some.lock").path
        let first = openLockFile(path)
        #expect(first >= 0)
        let second = openLockFile(path)
        #expect(second >= 0, "an existing lock file opens")
        close(first)
        close(second)
        #expect(openLockFile(directory.url.appendingPathComponent("missing/some.lock").path) == -1)
    }
}
