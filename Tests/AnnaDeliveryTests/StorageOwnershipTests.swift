import Foundation
import Testing

@_spi(DurableQueue) @testable import Anna

/// Issue 41, part 2: the queue's storage is released and retaken as the upload
/// machine orders it, so racing `suspend()` and `resume()` calls cannot leave the
/// queue released under a running uploader. Before, `suspend()` released the storage
/// after the uploader's hold and `resume()` retook it and ended the hold, each on its
/// own: a `resume()` between the two steps of a `suspend()` retook a storage still held
/// (nothing to do), ran the uploader, and the `suspend()` then released the storage
/// under it.
@Suite struct StorageOwnershipTests {
    let start = ContinuousClock.now

    /// The inputs a test feeds, in every order.
    enum Input: CaseIterable, CustomStringConvertible {
        /// `suspend()` is called.
        case suspend
        /// `resume()` is called.
        case resume
        /// The uploader's thread asks for its next step, and begins it.
        case drive
        /// The thread's storage step under way ends (it reports back).
        case complete

        var description: String { "\(self == .suspend ? "S" : self == .resume ? "R" : self == .drive ? "D" : "C")" }
    }

    /// The machine's one driver and the callers waiting on it.
    struct Model {
        var machine: TestMachine
        /// Callers of `suspend()` and `resume()` not yet resumed.
        var waiting: Set<UInt64> = []
        var resumedTwice: [UInt64] = []
        var everResumed: Set<UInt64> = []
        /// The driver's storage step under way.
        var underWay: TestMachine.Step?
        var nextWaiter: UInt64 = 1
        var lastCall: Input?

        mutating func feed(_ input: Input) {
            switch input {
            case .suspend, .resume:
                lastCall = input
                let waiter = nextWaiter
                nextWaiter += 1
                waiting.insert(waiter)
                take(input == .suspend ? machine.suspendRequested(waiter) : machine.resumeRequested(waiter))
            case .drive:
                guard underWay == nil else { return }
                let step = machine.next(now: .now)
                switch step {
                case .hold(let waiters), .holdEnded(let waiters): resumed(waiters)
                case .read: take(machine.batchRead(count: 0, now: .now))
                case .releaseStorage, .retakeStorage: underWay = step
                default: break
                }
            case .complete:
                switch underWay {
                case .releaseStorage?: take(machine.storageReleased())
                case .retakeStorage?: take(machine.storageRetaken(failure: nil))
                default: break
                }
                underWay = nil
            }
        }

        private mutating func take(_ effects: [TestMachine.Effect]) {
            resumed(effects.compactMap(\.resumed).flatMap { $0 })
        }

        private mutating func resumed(_ waiters: [UInt64]) {
            for waiter in waiters {
                if !everResumed.insert(waiter).inserted { resumedTwice.append(waiter) }
                waiting.remove(waiter)
            }
        }

        /// Nothing released while the uploader may run.
        func check(_ label: String) {
            if machine.storage.state != .held {
                #expect(machine.isSuspended && machine.isHeld && !machine.mayStartRequest, "released while running: \(label)")
            }
            #expect(resumedTwice.isEmpty, "a caller resumed twice: \(label)")
        }
    }

    @Test func everyOrderOfSuspendAndResumeEndsAsTheLastCallAskedAndResumesEveryCallerOnce() async {
        var orders: [[Input]] = [[]]
        for _ in 0..<6 { orders = orders.flatMap { order in Input.allCases.map { order + [$0] } } }
        for (index, order) in orders.enumerated() {
            // Yields now and then: a test holding one of Swift concurrency's two pool
            // threads for minutes (under the thread sanitizer) starves the tests beside it.
            if index % 256 == 0 { await Task.yield() }
            var model = Model(machine: TestMachine.make(at: start))
            let label = order.map(\.description).joined()
            for input in order {
                model.feed(input)
                model.check(label)
            }
            // Let everything under way end.
            for _ in 0..<8 {
                model.feed(.drive)
                model.feed(.complete)
                model.check(label)
            }
            #expect(model.underWay == nil && model.waiting.isEmpty, "\(label): \(model.waiting)")
            if model.lastCall == .suspend {
                #expect(model.machine.storage.state == .released && model.machine.isSuspended, "\(label)")
            } else {
                #expect(model.machine.storage.state == .held && !model.machine.isSuspended, "\(label)")
            }
        }
    }

    @Test func aResumeDuringTheReleaseIsAnsweredAfterTheRetake() {
        var machine = TestMachine.make(at: start)
        #expect(machine.suspendRequested(1).isEmpty)
        #expect(machine.next(now: start) == .releaseStorage)
        #expect(machine.resumeRequested(2).isEmpty, "the release is under way: resumed after the retake")
        #expect(machine.isSuspended, "the uploader stays held while the storage is not held")
        #expect(machine.storageReleased().compactMap(\.resumed) == [[1]], "the suspension is done")
        #expect(machine.next(now: start) == .retakeStorage, "the driver retakes it")
        #expect(machine.storageRetaken(failure: nil).compactMap(\.resumed) == [[2]])
        #expect(!machine.isSuspended && machine.next(now: start).isRead, "running again: a round reads what waits")
    }

    @Test func aResumeBeforeTheReleaseEndsTheSuspensionWithoutOne() {
        var machine = TestMachine.make(at: start)
        #expect(machine.suspendRequested(1).isEmpty)
        #expect(machine.resumeRequested(2).compactMap(\.resumed) == [[1, 2]], "never released: both return")
        #expect(!machine.isSuspended && machine.storage.state == .held)
        #expect(machine.next(now: start).isWait, "nothing to release or retake")
    }

    @Test func aFailedRetakeIsReportedAndStaysSuspendedUntilALaterResume() {
        var machine = TestMachine.make(at: start)
        _ = machine.suspendRequested(1)
        #expect(machine.next(now: start) == .releaseStorage)
        _ = machine.storageReleased()
        #expect(machine.resumeRequested(2).isEmpty)
        #expect(machine.next(now: start) == .retakeStorage)
        let failed = machine.storageRetaken(failure: .storageLocked(DurableStorageError(operation: "locking", path: "/tmp/q", code: EWOULDBLOCK)))
        #expect(failed.compactMap(\.resumed) == [[2]] && failed.contains { $0.isReport })
        #expect(machine.isSuspended && machine.storage.state == .released)
        #expect(machine.next(now: start).heldResuming == [], "held, nothing to do until the app resumes again")
        #expect(machine.resumeRequested(3).isEmpty)
        #expect(machine.next(now: start) == .retakeStorage, "a later resume tries again")
        #expect(machine.storageRetaken(failure: nil).compactMap(\.resumed) == [[3]] && !machine.isSuspended)
    }

    /// Issue 53's defect: after a stop, a `resume()` still ordered a retake, so a
    /// foreground event during a shutdown that began in the background relocked the
    /// directory after `shutdown()` returned.
    @Test func aStopWhileSuspendedRetakesPersistsAndReleasesAndAResumeAfterItOrdersNothing() {
        var machine = TestMachine.make(at: start)
        _ = machine.suspendRequested(1)
        #expect(machine.next(now: start) == .releaseStorage)
        _ = machine.storageReleased()
        #expect(machine.stopRequested(2).isEmpty)
        #expect(machine.next(now: start) == .finish(resuming: [2], retakingStorage: true))
        #expect(machine.resumeRequested(3).compactMap(\.resumed) == [[3]], "at once, ordering nothing")
        #expect(machine.suspendRequested(4).compactMap(\.resumed) == [[4]])
        #expect(machine.next(now: start) == .finish(resuming: [], retakingStorage: false))
    }

    @Test func aStopWhileSuspendedBeforeTheReleaseFinishesWithoutARetake() {
        var machine = TestMachine.make(at: start)
        _ = machine.suspendRequested(1)
        _ = machine.stopRequested(2)
        #expect(machine.next(now: start) == .finish(resuming: [1, 2], retakingStorage: false))
    }

    /// The same defect on real files: suspend, shut down, then a `resume()` from the
    /// foreground. Before, the directory was locked again by a provider that had shut
    /// down, so no other provider or process could open it.
    @Test func aResumeAfterAShutdownBegunInTheBackgroundLeavesTheDirectoryUnlocked() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let provider = try DurableProvider(
            endpoint: URL(string: "http://127.0.0.1:9/v1/batch")!, writeKey: "k", storage: .directory(directory.url),
            configuration: .init(flushAt: 1_000_000, flushInterval: .seconds(3600)))
        try await provider.receive(envelopes(0..<1))
        await provider.suspend()
        try await provider.receive(envelopes(1..<2))
        await provider.shutdown()
        await provider.resume()
        let reopened = try DurableQueue(storage: .directory(directory.url))
        #expect(await reopened.readAllText().count == 2, "both events are on disk for the next start")
        await reopened.releaseLock()
    }

    /// The provider end to end: racing calls on real files. After each race the
    /// uploader runs exactly when the queue holds its directory's lock.
    @Test func racingSuspendAndResumeNeverLeaveTheQueueReleasedUnderARunningUploader() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let provider = try DurableProvider(
            endpoint: URL(string: "http://127.0.0.1:9/v1/batch")!, writeKey: "k", storage: .directory(directory.url),
            configuration: .init(flushAt: 1_000_000, flushInterval: .seconds(3600)))
        for round in 0..<50 {
            await withTaskGroup(of: Void.self) { group in
                if round % 2 == 0 {
                    group.addTask { await provider.suspend() }
                    group.addTask { await provider.resume() }
                } else {
                    group.addTask { await provider.resume() }
                    group.addTask { await provider.suspend() }
                }
            }
            await provider.waitUntilPersisted()
            let running = !provider.uploader.isSuspended
            let lockHeld: Bool
            do {
                let probe = try DurableQueue(storage: .directory(directory.url))
                await probe.releaseLock()
                lockHeld = false
            } catch let error as DurableStorageError {
                lockHeld = error.isLockConflict
            }
            #expect(running == lockHeld, "round \(round): the uploader runs \(running), the queue holds its lock \(lockHeld)")
            if running != lockHeld { break }
        }
        await provider.resume()
        await provider.shutdown()
    }
}

extension UploadStateMachine.Step where Waiter == UInt64 {
    var isWait: Bool {
        if case .wait = self { return true }
        return false
    }
}

extension UploadStateMachine.Effect {
    var isReport: Bool {
        if case .report = self { return true }
        return false
    }
}
