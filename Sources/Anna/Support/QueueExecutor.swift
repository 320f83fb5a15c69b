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

/// Starts `work` in a task that runs on a serial queue of its own (`label`) where a task
/// can prefer an executor (Linux, iOS and tvOS 18, macOS 15, watchOS 11, visionOS 2),
/// and detached on the cooperative pool on earlier systems: for work that must start
/// even while the app's own tasks hold every thread of the pool.
/// - Parameters:
///   - label: The queue's label, for debuggers and crash reports.
///   - work: The work; the task ends when it returns.
package func startOffThePool(label: String, _ work: @escaping @Sendable () async -> Void) {
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
        Task(executorPreference: QueueExecutor(queue: DispatchQueue(label: label))) { await work() }
    } else {
        Task.detached { await work() }
    }
}
