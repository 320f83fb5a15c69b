import Dispatch

extension DurableQueue {
    /// The writer's driver: runs each disk operation on the writer queue, in the order
    /// they were submitted, and waits out a conflict on the storage lock on the queue's
    /// timer, never by sleeping a thread.
    ///
    /// Operations enter `operations`, a serial queue whose target is `writerQueue`.
    /// When another queue holds the lock for a moment (``DeliveryStorage/LockPolicy/aroundIO``),
    /// ``Writer/attempt(_:)`` runs nothing and returns the instant
    /// ``QueueLockStateMachine`` gives; the driver then suspends `operations`, so that
    /// no later operation overtakes this one (a purge overtaken by a write, or an
    /// acknowledgement by a read, would delete accepted records or send them twice),
    /// and tries the operation again on `writerQueue` at that instant, until it runs;
    /// then it resumes `operations`. Callers that need the result on their thread
    /// (the uploader's) wait for it on a semaphore, not by polling.
    struct Driver: Sendable {
        let writer: QueueBound<Writer>
        /// Where operations enter, in order; suspended while one waits for the lock.
        let operations: DispatchQueue
        /// Where the writer runs: `operations`' blocks and an operation's tries again.
        let writerQueue: DispatchQueue

        /// Runs `body` as one disk operation after those submitted before; `done`
        /// receives its result on the writer queue. `first`, if any, runs at the
        /// operation's turn before the lock is taken, once, even while the lock is
        /// waited for (what a purge does to the buffer).
        func submit<Result>(
            first: (@Sendable (inout Writer) -> Void)? = nil,
            _ body: @escaping @Sendable (inout Writer) -> Result,
            done: @escaping @Sendable (Result) -> Void = { _ in }
        ) {
            operations.async {
                if let first { writer.withValue(first) }
                run(body, done: done)
            }
        }

        /// ``submit(_:done:)`` at `deadline`.
        func submit(after deadline: DispatchTime, _ body: @escaping @Sendable (inout Writer) -> Void) {
            operations.asyncAfter(deadline: deadline) { run(body, done: { _ in }) }
        }

        /// Runs `body` as one disk operation and returns its result, from a thread that
        /// may block and is not the writer queue's: the uploader's, or `deinit`'s.
        func wait<Result>(_ body: @escaping @Sendable (inout Writer) -> Result) -> Result {
            let box = ResultBox<Result>()
            // Usually done before `sync` returns; after a lock conflict, once it is over.
            operations.sync { run(body, done: { box.deliver($0) }) }
            return box.wait()
        }

        /// Runs `body` now, on the writer queue, or, while another queue holds the lock,
        /// suspends `operations` and tries again when the lock machine says.
        func run<Result>(
            _ body: @escaping @Sendable (inout Writer) -> Result, done: @escaping @Sendable (Result) -> Void
        ) {
            switch writer.withValue({ $0.attempt(body) }) {
            case .done(let result):
                done(result)
            case .retry(let at):
                // Takes effect when the block under way returns; every suspension is
                // matched by the resumption at the end of its own tries.
                operations.suspend()
                tryAgain(body, at: at, done: done)
            }
        }

        /// Tries `body` again at `at`, on `writerQueue` while `operations` is suspended.
        private func tryAgain<Result>(
            _ body: @escaping @Sendable (inout Writer) -> Result, at: ContinuousClock.Instant,
            done: @escaping @Sendable (Result) -> Void
        ) {
            let delay = max(.zero, at - ContinuousClock.now)
            writerQueue.asyncAfter(deadline: .now() + delay.dispatchInterval) {
                switch writer.withValue({ $0.attempt(body) }) {
                case .done(let result):
                    done(result)
                    operations.resume()
                case .retry(let next):
                    tryAgain(body, at: next, done: done)
                }
            }
        }
    }

    /// An operation's result, handed from the writer queue to a thread that waits for
    /// it. @unchecked: `value` is written once before the semaphore is signalled and
    /// read once after the wait returns.
    final class ResultBox<Result>: @unchecked Sendable {
        private var value: Result?
        private let delivered = DispatchSemaphore(value: 0)

        /// The writer queue delivers the result.
        func deliver(_ result: Result) {
            value = result
            delivered.signal()
        }

        /// Waits for the result.
        func wait() -> Result {
            delivered.wait()
            guard let value else { preconditionFailure("an operation's result is delivered before the signal") }
            return value
        }
    }
}
