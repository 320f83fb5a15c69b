/// Every decision the service makes about the app's lifecycle, as a value: inputs go
/// in, effects come out, and the service (`AnalyticsService+Lifecycle.swift`) only
/// performs them. Tests drive it with no threads, clocks or platform.
///
/// The rules:
/// - Going to the background opens a background window whose work flushes; once the
///   flush is done, the providers suspend (they release their files and locks: iOS
///   kills a suspended app that holds a lock in a shared container), unless the app
///   came back meanwhile.
/// - When the window's time runs out first, the providers suspend at once.
/// - Coming back to the foreground resumes suspended providers, before anything
///   reported afterwards reaches them.
/// - Termination flushes, waiting at most the configured time.
///
/// Each background transition has a generation, so work started for one transition
/// does nothing once the app came back (or left again).
package struct LifecycleStateMachine: Sendable, Equatable {
    /// What happened.
    package enum Input: Sendable, Equatable {
        /// An event from the app's lifecycle source.
        case lifecycle(AppLifecycleEvent)
        /// The background window's flush for `generation` finished.
        case backgroundFlushFinished(generation: Int)
        /// The background window for `generation` ran out of time.
        case backgroundWindowExpired(generation: Int)
    }

    /// What the service must do.
    package enum Effect: Sendable, Equatable {
        /// Report Segment's `Application Backgrounded`.
        case reportBackgrounded
        /// Report Segment's `Application Opened` with `from_background: true`.
        case reportOpenedFromBackground
        /// Open a background window for `generation`: flush in it, then send
        /// ``Input/backgroundFlushFinished(generation:)``; on expiry send
        /// ``Input/backgroundWindowExpired(generation:)``.
        case startBackgroundFlush(generation: Int)
        /// Tell every provider to suspend.
        case suspendProviders
        /// Tell every provider to resume, before what is reported next.
        case resumeProviders
        /// Flush, waiting at most the termination timeout.
        case flushBeforeTermination
    }

    /// Whether the service reports Segment's lifecycle events.
    package let tracksLifecycleEvents: Bool
    /// Counts background and foreground transitions.
    package private(set) var generation = 0
    /// Whether the app is in the background, as far as the source said.
    package private(set) var isInBackground = false
    /// Whether the providers were told to suspend and not yet to resume.
    package private(set) var isSuspended = false

    /// A machine for an app in the foreground.
    package init(tracksLifecycleEvents: Bool) {
        self.tracksLifecycleEvents = tracksLifecycleEvents
    }

    /// Takes an input; returns the effects, in order.
    package mutating func handle(_ input: Input) -> [Effect] {
        switch input {
        case .lifecycle(.launched):
            return []  // the service's own start is the launch
        case .lifecycle(.background):
            generation += 1
            isInBackground = true
            var effects: [Effect] = tracksLifecycleEvents ? [.reportBackgrounded] : []
            effects.append(.startBackgroundFlush(generation: generation))
            return effects
        case .lifecycle(.foreground):
            generation += 1
            isInBackground = false
            var effects: [Effect] = []
            if isSuspended {
                isSuspended = false
                effects.append(.resumeProviders)
            }
            if tracksLifecycleEvents { effects.append(.reportOpenedFromBackground) }
            return effects
        case .lifecycle(.willTerminate):
            return [.flushBeforeTermination]
        case .backgroundFlushFinished(let flushed), .backgroundWindowExpired(let flushed):
            guard flushed == generation, isInBackground, !isSuspended else { return [] }
            isSuspended = true
            return [.suspendProviders]
        }
    }
}
