import Foundation
import Testing

@testable import Anna

func currentThreadID() -> UInt {
    #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
    #else
    UInt(pthread_self())
    #endif
}

/// A memory store that records which threads touched it.
final class ThreadRecordingStore: SegmentStore, @unchecked Sendable {
    private let base = MemorySegmentStore()
    private let lock = NSLock()
    private var threads: Set<UInt> = []

    var touchingThreads: Set<UInt> { lock.withLock { threads } }

    private func note() {
        let id = currentThreadID()
        lock.withLock { _ = threads.insert(id) }
    }

    func prepare() throws { note(); try base.prepare() }
    func segmentIDs() throws -> [UInt64] { note(); return try base.segmentIDs() }
    func contents(of id: UInt64) throws -> [UInt8] { note(); return try base.contents(of: id) }
    func modificationDate(of id: UInt64) -> Date? { note(); return base.modificationDate(of: id) }
    func create(_ id: UInt64) throws { note(); try base.create(id) }
    func write(_ bytes: UnsafeRawBufferPointer, to id: UInt64, at offset: Int) throws {
        note()
        try base.write(bytes, to: id, at: offset)
    }
    func sync(_ id: UInt64) throws { note(); try base.sync(id) }
    func truncate(_ id: UInt64, to size: Int) throws { note(); try base.truncate(id, to: size) }
    func read(_ id: UInt64, at offset: Int, count: Int) throws -> [UInt8] {
        note()
        return try base.read(id, at: offset, count: count)
    }
    func remove(_ id: UInt64) throws { note(); try base.remove(id) }
    func loadCursor() -> [UInt8]? { note(); return base.loadCursor() }
    func storeCursor(_ bytes: [UInt8]) throws { note(); try base.storeCursor(bytes) }
}

@Suite struct QueueThreadingTests {
    /// Opening and appending, from a thread of the caller's, never reach the store on it.
    @Test func theCallersThreadNeverTouchesStorage() async {
        let store = ThreadRecordingStore()
        let caller = LockedState<(UInt, DurableQueue?)>((0, nil))
        let opened = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        defer { release.signal() }
        // The caller's thread lives until the end, so no worker thread can reuse its id.
        Thread {
            let queue = DurableQueue(store: store, configuration: .init(), errorHandler: nil)
            queue.appendNumbered(0..<1000)
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
    @Test func concurrentAppendsKeepEachThreadsOrder() async {
        let queue = DurableQueue(storage: .memory(limit: 64 << 20), configuration: .init(writeThreshold: 64 << 10))
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
