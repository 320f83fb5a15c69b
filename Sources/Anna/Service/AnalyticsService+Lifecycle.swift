import Dispatch
import Foundation

/// What the service knows of the app's lifecycle.
struct LifecycleState: Sendable {
    var observation: AppLifecycle.Observation?
    /// Whether the providers were told to ``AnalyticsProvider/suspend()`` and not yet to resume.
    var isSuspended = false
    /// Counts background transitions, so that a window's work knows whether the app
    /// came back and went away again meanwhile.
    var generation = 0
}

extension AnalyticsService {
    /// Acts on the app's lifecycle: see ``Configuration/lifecycle``.
    func handle(_ event: AppLifecycleEvent) {
        switch event {
        case .launched:
            break  // the service's own start is the launch
        case .background:
            if configuration.tracksLifecycleEvents {
                report(Pipeline.lifecycleEvent("Application Backgrounded", app: configuration.context.app))
            }
            let generation = lifecycleState.withLock { state -> Int in
                state.generation += 1
                return state.generation
            }
            let window = configuration.lifecycle?.backgroundWindow ?? UnlimitedBackgroundWindow()
            window.run(named: "Anna: delivering analytics events") { [weak self] in
                guard let self else { return }
                await self.flush()
                await self.suspendProviders(ifStillInBackground: generation)
            } expired: { [weak self] in
                // Out of time: release what providers hold now rather than be suspended holding it.
                guard let self else { return }
                Task { await self.suspendProviders(ifStillInBackground: generation) }
            }
        case .foreground:
            lifecycleState.withLock { $0.generation += 1 }
            let wasSuspended = lifecycleState.withLock { state -> Bool in
                defer { state.isSuspended = false }
                return state.isSuspended
            }
            // Queued on the lanes now, so that everything handed to them later follows the resumption.
            if wasSuspended { sendToProviders(.resume, then: nil) }
            if configuration.tracksLifecycleEvents {
                report(Pipeline.lifecycleEvent(
                    "Application Opened", app: configuration.context.app, fromBackground: true))
            }
        case .willTerminate:
            let done = DispatchSemaphore(value: 0)
            Task {
                await self.flush()
                done.signal()
            }
            _ = done.wait(timeout: .now() + configuration.terminationFlushTimeout.dispatchInterval)
        }
    }

    /// Tells the providers to suspend, unless the app came back (or left again) since
    /// the background transition `generation`.
    private func suspendProviders(ifStillInBackground generation: Int) async {
        let suspend = lifecycleState.withLock { state -> Bool in
            guard state.generation == generation, !state.isSuspended else { return false }
            state.isSuspended = true
            return true
        }
        guard suspend else { return }
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
