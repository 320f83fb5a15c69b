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
        /// The uploader's thread asks for its next step.
        case drive
        /// The oldest release or retake under way ends.
        case complete

        var description: String { "\(self == .suspend ? "S" : self == .resume ? "R" : self == .drive ? "D" : "C")" }
    }

    /// Callers of the model: suspenders waiting for the hold, actions under way.
    struct Model {
        var machine: TestMachine
        var waitingForHold: Set<UInt64> = []
        var underWay: [StorageOwnership.Action] = []
        var nextWaiter: UInt64 = 1
        var lastCall: Input?

        mutating func feed(_ input: Input) {
            switch input {
            case .suspend:
                lastCall = .suspend
                let waiter = nextWaiter
                nextWaiter += 1
                let (began, effects) = machine.suspendRequested(waiter)
                if began { waitingForHold.insert(waiter) }
                resumed(effects.compactMap(\.resumed).flatMap { $0 })
            case .resume:
                lastCall = .resume
                take(machine.resumeRequested())
            case .drive:
                switch machine.next(now: .now) {
                case .hold(let waiters), .holdEnded(let waiters): resumed(waiters)
                case .read: _ = machine.batchRead(count: 0, now: .now)
                default: break
                }
            case .complete:
                guard !underWay.isEmpty else { return }
                switch underWay.removeFirst() {
                case .release: take(machine.storageReleased())
                case .retake: take(machine.storageRetaken(true))
                case .none: break
                }
            }
        }

        /// Suspenders whose hold is reached ask what to do with the storage.
        private mutating func resumed(_ waiters: [UInt64]) {
            for waiter in waiters where waitingForHold.remove(waiter) != nil {
                take(machine.storageStep())
            }
        }

        private mutating func take(_ action: StorageOwnership.Action) {
            if action != .none { underWay.append(action) }
        }

        /// Nothing released while the uploader may run; at most one action under way.
        func check(_ label: String) {
            if machine.storage.state != .held {
                #expect(machine.isSuspended && machine.isHeld && !machine.mayStartRequest, "released while running: \(label)")
            }
            #expect(underWay.count <= 1, "two callers act on the storage at once: \(label)")
        }
    }

    @Test func everyOrderOfSuspendAndResumeEndsAsTheLastCallAsked() async {
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
            #expect(model.underWay.isEmpty && model.waitingForHold.isEmpty, "\(label)")
            if model.lastCall == .suspend {
                #expect(model.machine.storage.state == .released && model.machine.isSuspended, "\(label)")
            } else {
                #expect(model.machine.storage.state == .held && !model.machine.isSuspended, "\(label)")
            }
        }
    }

    @Test func aResumeDuringTheReleaseLeavesTheRetakeToTheReleaser() {
        var machine = TestMachine.make(at: start)
        #expect(machine.suspendRequested(1).began)
        #expect(machine.next(now: start).heldResuming == [1])
        #expect(machine.storageStep() == .release)
        #expect(machine.resumeRequested() == .none, "the release is under way: not retaken before it ends")
        #expect(machine.isSuspended, "the uploader stays held while the storage is released")
        #expect(machine.storageReleased() == .retake, "the releaser retakes it")
        #expect(machine.storageRetaken(true) == .none)
        #expect(!machine.isSuspended && machine.next(now: start).isWait)
    }

    @Test func aFailedRetakeStaysSuspendedUntilALaterResume() {
        var machine = TestMachine.make(at: start)
        _ = machine.suspendRequested(1)
        _ = machine.next(now: start)
        #expect(machine.storageStep() == .release)
        #expect(machine.storageReleased() == .none)
        #expect(machine.resumeRequested() == .retake)
        #expect(machine.storageRetaken(false) == .none)
        #expect(machine.isSuspended && machine.storage.state == .released)
        #expect(machine.resumeRequested() == .retake, "a later resume tries again")
        #expect(machine.storageRetaken(true) == .none && !machine.isSuspended)
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
