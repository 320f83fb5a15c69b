import Dispatch

/// State that one serial queue owns, as swift-nio's `NIOLoopBound` binds a value to
/// an event loop: it is read and written only in blocks running on `queue`, and debug
/// builds check every access (`dispatchPrecondition`); release builds check nothing.
/// So a type that keeps such state needs no `@unchecked Sendable` of its own.
package final class QueueBound<Value>: @unchecked Sendable {
    // @unchecked: every access to `storage` is on `queue`, checked in debug builds.
    package let queue: DispatchQueue
    private var storage: Value

    /// Binds a value to a queue. The value is handed over here, before any block of
    /// the queue can see it.
    package init(_ value: Value, on queue: DispatchQueue) {
        storage = value
        self.queue = queue
    }

    /// Replaces the value from outside the queue, while it is inactive (created
    /// `.initiallyInactive` and not yet activated), so no block of it can run meanwhile.
    package func handOver(_ value: Value) {
        storage = value
    }

    /// The value; only on `queue`.
    package var value: Value {
        get {
            assertOnQueue()
            return storage
        }
        _modify {
            assertOnQueue()
            yield &storage
        }
    }

    /// Runs `body` with the value, checked once: for an owner that touches its state
    /// many times in one pass (per event), where a check per access would cost.
    /// - Parameter body: Runs on `queue` with the value.
    /// - Returns: What `body` returns.
    @inline(__always)
    package func withValue<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        assertOnQueue()
        return try body(&storage)
    }

    @inline(__always)
    private func assertOnQueue() {
        #if DEBUG
        dispatchPrecondition(condition: .onQueue(queue))
        #endif
    }
}
