import Dispatch
import Foundation

/// The service's registration with its lifecycle source and the lifecycle's decisions
/// (``LifecycleStateMachine``), behind the service's lock.
struct LifecycleState: Sendable {
    var observation: AppLifecycle.Observation?
    var machine: LifecycleStateMachine
}

extension AnalyticsService {
    /// How long the expiration of a background window waits for the providers to
    /// release their files before it returns (and the platform suspends the app).
    static let expirySuspendWait: Duration = .milliseconds(500)

    /// Acts on the app's lifecycle: see ``Configuration/lifecycle``. The decisions are
    /// the ``LifecycleStateMachine``'s; this only performs its effects.
    func handle(_ event: AppLifecycleEvent) {
        perform(lifecycleState.withLock { $0.machine.handle(.lifecycle(event)) })
    }

    private func perform(_ effects: [LifecycleStateMachine.Effect]) {
        for effect in effects {
            switch effect {
            case .reportBackgrounded:
                report(.lifecycle("Application Backgrounded", app: configuration.context.app))
            case .reportOpenedFromBackground:
                report(.lifecycle("Application Opened", app: configuration.context.app, fromBackground: true))
            case .startBackgroundFlush(let generation):
                startBackgroundFlush(generation: generation)
            case .suspendProviders:
                sendToProviders(.suspend, then: nil)
            case .resumeProviders:
                // Queued on the lanes now, so that everything handed to them later follows the resumption.
                sendToProviders(.resume, then: nil)
            case .flushBeforeTermination:
                // Waited for on the caller's thread, through the service's queues only:
                // no step waits for a thread of the cooperative pool.
                let done = DispatchSemaphore(value: 0)
                flushAndWrite { done.signal() }
                _ = done.wait(timeout: .now() + configuration.terminationFlushTimeout.dispatchInterval)
            }
        }
    }

    private func startBackgroundFlush(generation: Int) {
        let window = configuration.lifecycle?.backgroundWindow ?? UnlimitedBackgroundWindow()
        window.run(named: "Anna: delivering analytics events") { [weak self] in
            guard let self else { return }
            // The window's task only waits: the steps run one after another on the
            // pipeline's, the lanes' and the persister's queues, so none waits for a
            // thread of the cooperative pool, which the app's own tasks may hold when it
            // goes to the background.
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                self.flushInBackground(generation: generation) { continuation.resume() }
            }
        } expired: { [weak self] in
            // Out of time: release what providers hold now rather than be suspended
            // holding it. The platform ends the window as soon as this returns, so wait
            // (briefly) until the providers let go; on the lanes' own queues, so this
            // waits on no task of the caller's pool.
            guard let self else { return }
            let effects = self.lifecycleState.withLock { $0.machine.handle(.backgroundWindowExpired(generation: generation)) }
            guard effects.contains(.suspendProviders) else { return self.perform(effects) }
            let done = DispatchSemaphore(value: 0)
            self.sendToProviders(.suspend) { done.signal() }
            _ = done.wait(timeout: .now() + Self.expirySuspendWait.dispatchInterval)
        }
    }

    /// The background flush: delivers what was reported (each lane drains and flushes
    /// its provider), waits for the identity's writes, then tells the machine the flush
    /// finished and, when it says so, suspends every provider (a durable one releases its
    /// queue's lock). `done` runs after the last step, on the queue that took it.
    private func flushInBackground(generation: Int, then done: @escaping @Sendable () -> Void) {
        flushAndWrite { [self] in
            let effects = lifecycleState.withLock { $0.machine.handle(.backgroundFlushFinished(generation: generation)) }
            guard effects.contains(.suspendProviders) else {
                perform(effects)
                return done()
            }
            sendToProviders(.suspend, then: done)
        }
    }

    /// ``flush()`` and ``shutdown()`` without a task: every lane drains and flushes its
    /// provider (or shuts it down, when `shutsDown`), then the identity's queued writes
    /// finish; `done` runs after, on the persister's queue.
    func flushAndWrite(shutsDown: Bool = false, then done: @escaping @Sendable () -> Void) {
        let barrier = Barrier(parties: max(lanes.count, 1)) { [persister] in persister.afterWrites(done) }
        enqueueControl(.drain(barrier, shutsDown: shutsDown))
    }

    /// Queues `suspend` or `resume` on every lane, after what it was handed before;
    /// `done` runs once every provider has done it.
    private func sendToProviders(_ action: ProviderLane.Transition, then done: (@Sendable () -> Void)?) {
        let barrier = Barrier(parties: max(lanes.count, 1)) { done?() }
        if lanes.isEmpty { barrier.arrive() }
        for lane in lanes { lane.enqueueControl(.transition(action, barrier)) }
    }
}
