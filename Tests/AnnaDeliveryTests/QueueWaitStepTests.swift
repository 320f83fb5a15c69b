import Foundation
import Testing

@_spi(DurableQueue) @testable import Anna

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Issue 53: the bounded waits of a shared folder that a driver's loop used to poll
/// with `usleep` are steps that say when to try again; the uploader's timer (or a
/// suspended task) does the waiting. The machine's steps are checked without threads
/// or a clock; the folder's tries on real files, with the other process's instant on a
/// lock played by a second descriptor, never by timing.
@Suite struct QueueWaitStepTests {
    let start = ContinuousClock.now
    let millisecond = Duration.milliseconds(1)

    // MARK: The lease left in upload.lock

    /// A shared folder's machine whose request of three records was answered.
    func answered() -> TestMachine {
        var machine = TestMachine.make(at: start, flushAt: 1, adoptsOrphans: true)
        machine.nextAdoption = start + .seconds(3600)
        machine.backlogChanged(3)
        #expect(machine.step(now: start).isRead)
        _ = machine.batchRead(count: 3, now: start)
        #expect(machine.step(now: start) == .takeUploadLock)
        machine.uploadLockTaken()
        #expect(machine.step(now: start) == .send(0..<3))
        let started = machine.requestStarting(7, now: start)
        #expect(started)
        let wakes = machine.requestCompleted(7, answer: .accepted)
        #expect(wakes)
        #expect(machine.step(now: start) == .answer(.accepted))
        return machine
    }

    @Test func aLeaseLeftInTheLockFileIsErasedOnTheTimerBeforeAnythingElse() {
        var machine = answered()
        machine.uploadLockReleased()
        machine.uploadLeaseLeft(now: start)
        #expect(machine.answered(.accepted, now: start).compactMap(\.acknowledged).map(\.delivered) == [3],
            "the answer counts at once")
        #expect(machine.step(now: start) == .wait(until: start + millisecond), "a pause, not a loop")
        #expect(machine.step(now: start + millisecond) == .eraseUploadLease)
        machine.uploadLeaseEraseTried(erased: false, now: start + millisecond)
        #expect(machine.step(now: start + millisecond) == .wait(until: start + Duration.milliseconds(2)), "still busy: again")
        #expect(machine.step(now: start + Duration.milliseconds(2)) == .eraseUploadLease)
        machine.uploadLeaseEraseTried(erased: true, now: start + Duration.milliseconds(2))
        #expect(machine.step(now: start + Duration.milliseconds(2)).isRead, "erased: the next batch")
    }

    @Test func aLeaseStillBusyAfterTwentyTriesIsLeftToExpire() {
        var machine = answered()
        machine.uploadLockReleased()
        machine.uploadLeaseLeft(now: start)
        _ = machine.answered(.accepted, now: start)
        var now = start
        var tries = 1  // the first, in giving the lock back
        while true {
            let step = machine.step(now: now)
            if case .wait(let until?) = step, until > now {
                #expect(until - now == millisecond, "a pause of a millisecond")
                now = until
                continue
            }
            guard step == .eraseUploadLease else { break }
            tries += 1
            machine.uploadLeaseEraseTried(erased: false, now: now)
        }
        #expect(tries == UploadLockWait.leaseEraseTries && tries == 20, "the loop's bound: 20 tries")
        #expect(machine.step(now: now).isRead, "then the uploader goes on; the lease expires by itself")
    }

    @Test func aLeaseErasedAtOnceLeavesNothingToWaitFor() {
        var machine = answered()
        machine.uploadLockReleased()
        _ = machine.answered(.accepted, now: start)
        #expect(machine.step(now: start).isRead)
    }

    /// On real files: another process holding `upload.lock`'s `flock` for an instant
    /// keeps the lease in the file, and so keeps other processes from sending, until a
    /// later try erases it.
    @Test func theFolderLeavesItsLeaseWhileTheFlockIsBusyAndErasesItLater() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let app = SharedDeliveryFolder(folder: directory.url, process: "App", lockPolicy: .aroundIO)
        let other = SharedDeliveryFolder(folder: directory.url, process: "Extension", lockPolicy: .aroundIO)
        #expect(app.tryLockUploads())
        let descriptor = open(directory.url.appendingPathComponent("upload.lock").path, O_RDWR)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        #expect(UploadLease.read(descriptor) != nil, "the app's lease")
        try #require(flock(descriptor, LOCK_EX | LOCK_NB) == 0, "another process's instant")
        #expect(!app.unlockUploads(), "the lease stays: the flock is busy")
        #expect(!app.eraseLease(), "still busy")
        #expect(flock(descriptor, LOCK_UN) == 0)
        #expect(UploadLease.read(descriptor) != nil)
        #expect(!other.tryLockUploads(), "a live lease still keeps other processes from sending")
        #expect(app.eraseLease(), "erased once the flock is free")
        #expect(UploadLease.read(descriptor) == nil)
        #expect(app.eraseLease(), "nothing left to erase")
        #expect(other.tryLockUploads(), "the next process sends")
        #expect(other.unlockUploads())
    }

    // MARK: claim.lock during an adoption

    @Test func anAdoptionWaitingForTheClaimLockGoesOnFromItsQueueOnTheTimer() {
        var machine = TestMachine.make(at: start, flushInterval: .seconds(30), adoptsOrphans: true)
        _ = machine.flushPersisting(9, now: start)
        #expect(machine.step(now: start) == .adopt)
        machine.adoptionWaitsForClaimLock(at: "Extension.2", now: start)
        #expect(machine.step(now: start) == .wait(until: start + millisecond), "the flush's round waits with it")
        #expect(machine.step(now: start + millisecond) == .resumeAdoption(from: "Extension.2", withoutClaimLock: false))
        #expect(machine.adopted(now: start + millisecond).isEmpty)
        #expect(machine.step(now: start + millisecond).isRead, "then the flush's round")
        #expect(machine.batchRead(count: 0, now: start + millisecond).compactMap(\.resumed) == [[9]])
        #expect(machine.step(now: start + millisecond) == .wait(until: start + millisecond + .seconds(30)),
            "the next adoption, a whole interval later")
    }

    @Test func theClaimLockIsWaitedForFiftyMillisecondsThenTheQueueIsTakenWithoutIt() {
        var machine = TestMachine.make(at: start, adoptsOrphans: true)
        #expect(machine.step(now: start) == .adopt)
        machine.adoptionWaitsForClaimLock(at: "Extension.2", now: start)
        var now = start
        var tries = 1
        while true {
            let step = machine.step(now: now)
            if case .wait(let until?) = step, until > now {
                #expect(until - now == millisecond)
                now = until
                continue
            }
            guard case .resumeAdoption(let name, let withoutClaimLock) = step else {
                Issue.record("the adoption goes on: \(step)")
                return
            }
            #expect(name == "Extension.2")
            if withoutClaimLock { break }
            tries += 1
            machine.adoptionWaitsForClaimLock(at: name, now: now)
        }
        #expect(now - start == ClaimLockWait.patience && now - start == .milliseconds(50), "the loop's bound")
        #expect(tries == 51, "a try every millisecond until then")
        // The next queue waits anew.
        machine.adoptionWaitsForClaimLock(at: "Extension.3", now: now)
        #expect(machine.step(now: now) == .wait(until: now + millisecond))
        #expect(machine.step(now: now + millisecond) == .resumeAdoption(from: "Extension.3", withoutClaimLock: false))
        #expect(machine.adopted(now: now + millisecond).isEmpty)
        #expect(machine.step(now: now + millisecond).waitDeadline != nil, "done")
    }

    @Test func aHoldCutsAnAdoptionWaitingForTheClaimLockShort() {
        var machine = TestMachine.make(at: start, adoptsOrphans: true)
        #expect(machine.step(now: start) == .adopt)
        machine.adoptionWaitsForClaimLock(at: "Extension.2", now: start)
        _ = machine.purgeStarted(40)
        #expect(machine.step(now: start).heldResuming == [40], "the purge first")
        machine.purgeEnded()
        #expect(machine.step(now: start + .seconds(1)) == .adopt, "then an adoption from the first queue")
    }

    /// A queue an ended process left in `folder`'s `queues/<name>`, with `count` records.
    func leaveQueue(_ name: String, in folder: URL, count: Int) async throws {
        let queue = try DurableQueue(storage: .directory(folder.appendingPathComponent("queues/\(name)")))
        queue.appendNumbered(0..<count)
        await queue.waitUntilPersisted()
    }

    /// On real files: while `claim.lock` is busy the folder's adoption stops at the
    /// queue it would lock, goes on from there when told, without the lock when the
    /// wait ran out, and moves every record.
    @Test func theFolderStopsAdoptingAtABusyClaimLockAndGoesOnFromThere() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        try await leaveQueue("Extension.1", in: directory.url, count: 5)
        try await leaveQueue("Extension.2", in: directory.url, count: 3)
        let folder = SharedDeliveryFolder(folder: directory.url, process: "App")
        let store = try folder.claim()
        let target = try DurableQueue(
            store: store, configuration: .init(), location: store.directory.path, errorHandler: nil)
        let claimLock = open(directory.url.appendingPathComponent("claim.lock").path, O_RDWR)
        try #require(claimLock >= 0)
        defer { close(claimLock) }
        try #require(flock(claimLock, LOCK_EX | LOCK_NB) == 0, "another process takes a queue's lock")

        func adopt(from start: String? = nil, withoutClaimLock: Bool = false) -> SharedDeliveryFolder.Adoption {
            folder.adoptOrphans(
                into: target, configuration: target.configuration, errorHandler: nil, from: start,
                withoutClaimLock: withoutClaimLock, shouldStop: { false })
        }
        var adoption = adopt()
        #expect(adoption.waitsForClaimLockAt == "Extension.1" && adoption.records == 0, "its own queue skipped")
        adoption = adopt(from: "Extension.1")
        #expect(adoption.waitsForClaimLockAt == "Extension.1" && adoption.records == 0, "still busy")
        adoption = adopt(from: "Extension.1", withoutClaimLock: true)
        #expect(adoption.records == 5, "the wait ran out: that queue without claim.lock")
        #expect(adoption.waitsForClaimLockAt == "Extension.2", "the next queue waits anew")
        #expect(flock(claimLock, LOCK_UN) == 0)
        adoption = adopt(from: "Extension.2")
        #expect(adoption.records == 3 && adoption.waitsForClaimLockAt == nil)
        #expect(target.readNow(maxRecords: 100, maxBytes: 1 << 20).count == 8, "every record moved")
        #expect(adopt().records == 0, "nothing left")
    }

    /// A purge of ended processes' queues waits for `claim.lock` by suspending its task,
    /// then purges without it.
    @Test func aPurgeOfEndedQueuesGoesOnWithoutABusyClaimLock() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        try await leaveQueue("Extension.1", in: directory.url, count: 4)
        let folder = SharedDeliveryFolder(folder: directory.url, process: "App")
        let store = try folder.claim()
        let own = try DurableQueue(store: store, configuration: .init(), location: store.directory.path, errorHandler: nil)
        let claimLock = open(directory.url.appendingPathComponent("claim.lock").path, O_RDWR)
        try #require(claimLock >= 0)
        defer { close(claimLock) }
        try #require(flock(claimLock, LOCK_EX | LOCK_NB) == 0)
        await folder.purgeOrphans(own: own, configuration: own.configuration, errorHandler: nil)
        let left = try DurableQueue(storage: .directory(directory.url.appendingPathComponent("queues/Extension.1")))
        #expect(await left.readAllText().isEmpty, "purged")
    }
}

/// A store whose lock another queue holds while `busy` is set (a conflict, as
/// `flock` reports it); counts the tries.
final class ContendedStore: ForwardingStore, @unchecked Sendable {
    private let contention = LockedState((busy: false, tries: 0))

    var busy: Bool {
        get { contention.withLock { $0.busy } }
        set { contention.withLock { $0.busy = newValue } }
    }

    var tries: Int { contention.withLock { $0.tries } }

    override func acquireLock() throws {
        let busy = contention.withLock { state -> Bool in
            state.tries += 1
            return state.busy
        }
        if busy { throw DurableStorageError(operation: "locking", path: "memory", code: EWOULDBLOCK) }
        try base.acquireLock()
    }
}

/// Issue 53: an `.aroundIO` queue whose lock another queue holds for a moment no
/// longer sleeps its writer in a loop: the operation returns when to try again
/// (``DurableQueue/Writer/attempt(now:_:)``), and the driver tries it again on the
/// writer queue's timer, letting no later operation in first.
@Suite struct QueueLockStepTests {
    let start = ContinuousClock.now

    /// A writer under `.aroundIO` with three records written, its lock given up.
    func idleWriter(
        store: ContendedStore, reclaim: (@Sendable () throws -> any SegmentStore)? = nil,
        errors: LockedState<[DurableStorageError]>
    ) -> DurableQueue.Writer {
        var configuration = DeliveryStorage.Configuration()
        configuration.lockPolicy = .aroundIO
        let state = LockedState(BufferState())
        var writer = DurableQueue.Writer(
            store: store, configuration: configuration, clock: .system, location: "memory", state: state,
            reclaim: reclaim, errorHandler: { error in errors.withLock { $0.append(error) } })
        state.withLock { state in
            for number in 0..<3 {
                Array("record-\(number)".utf8).withUnsafeBytes {
                    RecordFraming.append($0, crc: CRC32.checksum($0), to: &state.buffer)
                }
            }
            state.bufferedCount = 3
            state.appendedSequence = 3
        }
        guard case .done = writer.attempt(now: start, { $0.writeBuffered() }) else {
            Issue.record("the first write runs: the lock is held from the start")
            return writer
        }
        #expect(writer.lock.phase == .idle, "given up after the operation")
        return writer
    }

    @Test func aConflictIsTriedAgainAtTheInstantTheLockMachineGivesThenTheOperationRuns() {
        let store = ContendedStore(base: MemorySegmentStore())
        let errors = LockedState<[DurableStorageError]>([])
        var writer = idleWriter(store: store, errors: errors)
        store.busy = true
        var ran = 0
        guard case .retry(let at) = writer.attempt(now: start, { _ in ran += 1 }) else {
            Issue.record("another queue holds the lock: try again later")
            return
        }
        #expect(at == start + .milliseconds(2), "the lock machine's pause")
        #expect(ran == 0, "nothing of the operation ran")
        guard case .retry(let again) = writer.attempt(now: at, { _ in ran += 1 }) else {
            Issue.record("still held")
            return
        }
        #expect(again == at + .milliseconds(2))
        store.busy = false
        guard case .done(let records) = writer.attempt(now: again, { $0.read(maxRecords: 10, maxBytes: 1 << 20) }) else {
            Issue.record("the lock is free: the operation runs")
            return
        }
        #expect(records.count == 3, "what was written, read once the lock is taken")
        #expect(writer.lock.phase == .idle, "and given up after it")
        #expect(errors.withLock { $0.isEmpty }, "a brief conflict is no error")
    }

    @Test func aConflictPastThePatienceFailsTheOperationAsBefore() {
        let store = ContendedStore(base: MemorySegmentStore())
        let errors = LockedState<[DurableStorageError]>([])
        var writer = idleWriter(store: store, errors: errors)
        store.busy = true
        var now = start
        var pauses = 0
        var outcome: [DurableQueue.Record]?
        while outcome == nil {
            switch writer.attempt(now: now, { $0.read(maxRecords: 10, maxBytes: 1 << 20) }) {
            case .retry(let at):
                pauses += 1
                now = at
            case .done(let records):
                outcome = records
            }
        }
        #expect(pauses == 100 && now - start == .milliseconds(200), "every 2 ms for 200 ms")
        #expect(outcome == [], "then the operation runs without the disk: nothing read, as before")
        #expect(errors.withLock { $0.count == 1 && $0[0].isLockConflict }, "the conflict reported, as before")
        guard case .retry = writer.attempt(now: now, { _ in }) else {
            Issue.record("the next operation waits anew")
            return
        }
    }

    /// A purge that could not take the lock left the disk's records for later; when the
    /// lock came back with the folder unchanged (no recovery), they were read and sent.
    @Test func aPurgeLeftPendingByAConflictIsDoneWhenTheLockComesBack() {
        let store = ContendedStore(base: MemorySegmentStore())
        let errors = LockedState<[DurableStorageError]>([])
        var writer = idleWriter(store: store, errors: errors)
        store.busy = true
        writer.purgeBuffer()
        var now = start
        while case .retry(let at) = writer.attempt(now: now, { $0.purgeStored() }) { now = at }
        store.busy = false
        guard case .done(let records) = writer.attempt(now: now, { $0.read(maxRecords: 10, maxBytes: 1 << 20) }) else {
            Issue.record("the lock is free: the read runs")
            return
        }
        #expect(records.isEmpty, "the purged records are never read: \(records.count) were")
    }

    @Test func aConflictPastThePatienceMovesAQueueOfASharedFolderElsewhere() {
        let store = ContendedStore(base: MemorySegmentStore())
        let errors = LockedState<[DurableStorageError]>([])
        var writer = idleWriter(store: store, reclaim: { ContendedStore(base: MemorySegmentStore()) }, errors: errors)
        store.busy = true
        var now = start
        while case .retry(let at) = writer.attempt(now: now, { _ in }) { now = at }
        #expect(now - start == .milliseconds(200))
        #expect(errors.withLock { $0.isEmpty }, "moving is no error")
        #expect(writer.generation == 1, "moved to the store `reclaim` gave")
        #expect(writer.lock.phase == .idle, "and gave its lock up after the operation")
    }
}

/// The driver of the same: with real queues and threads, but nothing timed.
@Suite struct QueueLockDriverTests {
    /// An `.aroundIO` queue on a store whose lock the test makes busy, with `count`
    /// records persisted. The lock is waited out however long the test takes: nothing
    /// here depends on time.
    static func contendedQueue(persisting count: Int) async throws -> (ContendedStore, DurableQueue) {
        let store = ContendedStore(base: MemorySegmentStore())
        var configuration = DeliveryStorage.Configuration()
        configuration.lockPolicy = .aroundIO
        let queue = try DurableQueue(
            store: store, configuration: configuration, lockPatience: .seconds(3600), errorHandler: nil)
        queue.appendNumbered(0..<count)
        await queue.waitUntilPersisted()
        return (store, queue)
    }

    /// An operation waiting for the lock lets none submitted after it in first: a
    /// purge is not overtaken by a later write (which it would delete), and the
    /// records appended after the purge are kept.
    @Test func anOperationWaitingForTheLockIsOvertakenByNone() async throws {
        let (store, queue) = try await Self.contendedQueue(persisting: 3)
        store.busy = true
        let tries = store.tries
        async let purged: Void = queue.purge()
        #expect(await eventually(within: 300) { store.tries > tries + 1 }, "the purge waits for the lock on the timer")
        queue.appendNumbered(3..<5)
        async let persisted: Void = queue.waitUntilPersisted()
        store.busy = false
        _ = await (purged, persisted)
        #expect(await queue.readAllText() == ["record-3", "record-4"], "purged first, then written")
        #expect(queue.metrics.dropped[.purged, default: 0] == 3)
    }

    /// The uploader's synchronous calls wait for the lock without polling and get
    /// their result.
    @Test func aSynchronousCallerGetsItsResultOnceTheLockIsFree() async throws {
        let (store, queue) = try await Self.contendedQueue(persisting: 4)
        store.busy = true
        let tries = store.tries
        let records = LockedState<[DurableQueue.Record]?>(nil)
        let thread = Thread { records.withLock { $0 = queue.readNow(maxRecords: 10, maxBytes: 1 << 20) } }
        thread.start()
        #expect(await eventually(within: 300) { store.tries > tries + 1 }, "the read waits for the lock")
        store.busy = false
        #expect(await eventually(within: 300) { records.withLock { $0 != nil } })
        #expect(records.withLock { $0?.count } == 4)
    }
}
