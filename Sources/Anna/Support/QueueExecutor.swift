import Dispatch

/// Runs a task's jobs on a serial dispatch queue instead of Swift's shared cooperative
/// pool: a lane's task on the lane's queue, so a provider that blocks blocks only its
/// own thread; the background flush's window on a queue of its own, so it never waits
/// for a thread of the pool, which the app's own work may hold.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class QueueExecutor: TaskExecutor, Sendable {
    private let queue: DispatchQueue

    init(queue: DispatchQueue) {
        self.queue = queue
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// Where tasks started through it run: on a serial dispatch queue where a task can
/// prefer an executor (Linux, iOS and tvOS 18, macOS 15, watchOS 11, visionOS 2),
/// detached on the cooperative pool on earlier systems. The one place that makes
/// that choice, for provider lanes and the background flush's window.
struct OffPoolStarter: Sendable {
    /// The queue's ``QueueExecutor`` where one can exist; typed `any Sendable` so that
    /// the stored property needs no availability.
    private let executor: (any Sendable)?

    init(queue: DispatchQueue) {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            executor = QueueExecutor(queue: queue)
        } else {
            executor = nil
        }
    }

    /// Whether its tasks run on the queue (else on the cooperative pool).
    var runsOnTheQueue: Bool { executor != nil }

    /// Starts `work` in a new task; the task ends when it returns.
    func start(_ work: @escaping @Sendable () async -> Void) {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *), let executor = executor as? QueueExecutor {
            Task(executorPreference: executor) { await work() }
        } else {
            Task.detached { await work() }
        }
    }
}

/// Starts `work` in a task that runs on a serial queue of its own (`label`) where a task
/// can prefer an executor, and detached on the cooperative pool on earlier systems
/// (``OffPoolStarter``): for work that must start even while the app's own tasks hold
/// every thread of the pool.
/// - Parameters:
///   - label: The queue's label, for debuggers and crash reports.
///   - work: The work; the task ends when it returns.
package func startOffThePool(label: String, _ work: @escaping @Sendable () async -> Void) {
    OffPoolStarter(queue: DispatchQueue(label: label)).start(work)
}
