import Foundation
import Testing

@_spi(DurableQueue) @testable import Anna

func currentThreadID() -> UInt {
    #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
    #else
    UInt(pthread_self())
    #endif
}

/// A memory store that records which threads touched it (taking the lock excepted:
/// the initializer does that on the caller's thread, by design).
final class ThreadRecordingStore: ForwardingStore, @unchecked Sendable {
    private let lock = NSLock()
    private var threads: Set<UInt> = []

    init() { super.init(base: MemorySegmentStore()) }

    var touchingThreads: Set<UInt> { lock.withLock { threads } }

    override func willUse(_ operation: String, _ id: UInt64?) throws {
        let thread = currentThreadID()
        lock.withLock { _ = threads.insert(thread) }
    }
}

@Suite struct QueueThreadingTests {
    /// Opening and appending, from a thread of the caller's, never reach the store on it.
    @Test func theCallersThreadNeverTouchesStorage() async throws {
        let store = ThreadRecordingStore()
        let caller = LockedState<(UInt, DurableQueue?)>((0, nil))
        let opened = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        defer { release.signal() }
        // The caller's thread lives until the end, so no worker thread can reuse its id.
        Thread {
            // Only the lock (one open and flock, none for memory) is taken on this thread.
            let queue = try? DurableQueue(store: store, configuration: .init(), errorHandler: nil)
            queue?.appendNumbered(0..<1000)
            caller.withLock { $0 = (currentThreadID(), queue) }
            opened.signal()
            release.wait()
        }.start()
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                opened.wait()
                continuation.resume()
            }
        }
        let (thread, queue) = caller.withLock { $0 }
        await queue?.waitUntilPersisted()
        #expect(queue?.metrics.persisted == 1000)
        #expect(!store.touchingThreads.isEmpty && !store.touchingThreads.contains(thread))
    }

    /// Four threads append at once; every record arrives once, each thread's in order.
    @Test func concurrentAppendsKeepEachThreadsOrder() async throws {
        let queue = try DurableQueue(storage: .memory(limit: 64 << 20), configuration: .init(writeThreshold: 64 << 10))
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for number in 0..<10_000 { queue.append(Array("\(thread)-\(number)".utf8)) }
        }
        await queue.waitUntilPersisted()
        let texts = await queue.readAllText()
        #expect(texts.count == 40_000 && queue.metrics.persisted == 40_000)
        for thread in 0..<4 {
            let numbers = texts.filter { $0.hasPrefix("\(thread)-") }.map { Int($0.dropFirst(2))! }
            #expect(numbers == Array(0..<10_000))
        }
    }
}
