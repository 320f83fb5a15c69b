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
                let done = DispatchSemaphore(value: 0)
                Task {
                    await self.flush()
                    done.signal()
                }
                _ = done.wait(timeout: .now() + configuration.terminationFlushTimeout.dispatchInterval)
            }
        }
    }

    private func startBackgroundFlush(generation: Int) {
        let window = configuration.lifecycle?.backgroundWindow ?? UnlimitedBackgroundWindow()
        window.run(named: "Anna: delivering analytics events") { [weak self] in
            guard let self else { return }
            await self.flush()
            await self.transition(.backgroundFlushFinished(generation: generation))
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

    /// Feeds the machine an input from background work and waits until the providers
    /// did what it decided (suspension is the only effect such inputs have).
    private func transition(_ input: LifecycleStateMachine.Input) async {
        let effects = lifecycleState.withLock { $0.machine.handle(input) }
        guard effects.contains(.suspendProviders) else { return perform(effects) }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            sendToProviders(.suspend) { continuation.resume() }
        }
    }

    /// Queues `suspend` or `resume` on every lane, after what it was handed before;
    /// `done` runs once every provider has done it.
    private func sendToProviders(_ action: ProviderLane.Transition, then done: (@Sendable () -> Void)?) {
        let barrier = Barrier(parties: max(lanes.count, 1)) { done?() }
        if lanes.isEmpty { barrier.arrive() }
        for lane in lanes { lane.enqueueControl(.transition(action, barrier)) }
    }
}
