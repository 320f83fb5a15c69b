import Dispatch
import Foundation
import Testing

@testable import Anna
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
