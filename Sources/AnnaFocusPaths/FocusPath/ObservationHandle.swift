/// Cancels an observation an analyzer started (`observe(_:for:named:)`, through the
/// Observation framework here or key-value observing in AnnaApple): the analyzer keeps
/// it and cancels it at ``Analyzer/detach()``.
package final class ObservationHandle: Sendable {
    private let state = LockedState(false)

    package init() {}

    /// Whether the analyzer was detached.
    package var isCancelled: Bool { state.withLock { $0 } }

    /// Stops the observation at its next change.
    package func cancel() { state.withLock { $0 = true } }
}

extension Analyzer {
    /// Keeps `handle` until ``detach()``; `false` when already detached (do not observe).
    package func keepObservation(_ handle: ObservationHandle) -> Bool {
        keep(handle)
    }
}
