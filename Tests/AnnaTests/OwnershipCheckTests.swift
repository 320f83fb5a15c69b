import Dispatch
import Foundation
import Testing

@_spi(DurableQueue) @testable import Anna
@testable import AnnaFocusPaths

/// The ownership checks of debug builds (issue 22): state a queue owns, read off that
/// queue, and code documented "under the lock" run without it, stop the process. Exit
/// tests: each closure runs in a child process, which must trap.
@Suite struct OwnershipCheckTests {
    @Test func queueBoundStateIsReadAndWrittenOnItsQueue() {
        let queue = DispatchQueue(label: "owner")
        let bound = QueueBound(0, on: queue)
        queue.sync { bound.value += 41 }
        #expect(queue.sync { bound.value + 1 } == 42)
    }

    @Test func queueBoundWithValueRunsOnItsQueue() {
        let queue = DispatchQueue(label: "owner")
        let bound = QueueBound([1], on: queue)
        queue.sync { bound.withValue { $0.append(2) } }
        #expect(queue.sync { bound.withValue { $0 } } == [1, 2])
    }

    @Test func theFocusPathLockKnowsItsHolderThroughRecursion() {
        let lock = RecursiveLock()
        lock.withLock {
            lock.assertHeld()
            lock.withLock { lock.assertHeld() }
            lock.assertHeld()
        }
    }

    #if DEBUG
    @Test func queueBoundStateReadOffItsQueueTraps() async {
        await #expect(processExitsWith: .failure) {
            let bound = QueueBound(0, on: DispatchQueue(label: "owner"))
            _ = bound.value
        }
    }

    @Test func queueBoundWithValueOffItsQueueTraps() async {
        await #expect(processExitsWith: .failure) {
            QueueBound(0, on: DispatchQueue(label: "owner")).withValue { $0 += 1 }
        }
    }

    /// The pipeline's state is checked in its storage: a pass run off the pipeline's
    /// queue stops, whichever entry point it came through.
    @Test func thePipelinesStateTouchedOffItsQueueTraps() async {
        await #expect(processExitsWith: .failure) {
            let configuration = AnalyticsService.Configuration(storageDirectory: nil)
            let pipeline = Pipeline(
                configuration: configuration, lanes: [], counters: LockedState(AnalyticsMetrics()),
                persister: IdentityPersister(store: configuration.resolvedIdentityStore, errorHandler: nil),
                intake: LockedState(Intake(grantedConsent: [], limit: configuration.intakeLimit)), room: RoomSignal())
            var items: [Pipeline.Item] = [.event(AnalyticsEvent(name: "e"), Date(), size: 10)]
            _ = pipeline.process(&items, epoch: 0)
        }
    }

    /// A durable queue's disk side is checked in its storage too (issue 41): releasing
    /// the lock, or any other pass, run off the queue's writer queue stops. Before, the
    /// writer checked three entry points, and `release()` reached through none of them.
    @Test func theDurableQueuesWriterTouchedOffItsQueueTraps() async {
        await #expect(processExitsWith: .failure) {
            let queue = try DurableQueue(store: MemorySegmentStore(), configuration: .init(), errorHandler: nil)
            queue.writer.withValue { $0.release() }
        }
        await #expect(processExitsWith: .failure) {
            let queue = try DurableQueue(store: MemorySegmentStore(), configuration: .init(), errorHandler: nil)
            _ = queue.writer.withValue { $0.ensureReady() }
        }
    }

    @Test func codeUnderTheLockRunWithoutItTraps() async {
        await #expect(processExitsWith: .failure) {
            RecursiveLock().assertHeld()
        }
        await #expect(processExitsWith: .failure) {
            let lock = RecursiveLock()
            lock.withLock {}
            lock.assertHeld()
        }
    }

    @Test func aFocusPathFunctionCalledWithoutTheLockTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = Node(name: "root", index: nil, section: nil, parent: nil, createdAt: .init(), serial: 0).children
        }
    }
    #endif
}
