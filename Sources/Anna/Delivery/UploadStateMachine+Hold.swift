/// Holds and adoption: the inputs that stop the uploader for a purge or a
/// suspension, and the schedule of adopting ended processes' queues on a shared
/// folder. Decisions only; ``BatchUploader`` cancels the request in flight, resumes
/// the callers waiting for the hold and performs the adoption.
extension UploadStateMachine {
    /// Whether a purge or a suspension holds the uploader. A stop ends a suspension's
    /// hold: its last round finds nothing to read in the released queue.
    var isHeld: Bool {
        purging || (suspended && stopAfterRound == nil)
    }

    /// A purge began or ended, the app was suspended or resumed. A hold abandons the
    /// round under way (``Step/hold``); when it ends, a new round starts.
    mutating func holdChanged(purging: Bool, suspended: Bool) {
        self.purging = purging
        self.suspended = suspended
        if isHeld { abandonBatch() }
    }

    /// The driver adopted ended processes' queues (after ``Step/adopt``): the flushes
    /// that waited for it take their round now.
    mutating func adopted(now: Instant) -> [Effect] {
        nextAdoption = now + configuration.flushInterval
        let waiting = flushesAwaitingAdoption
        flushesAwaitingAdoption = []
        return waiting.flatMap { flushRequestedAfterAdoption(id: $0, now: now) }
    }

    /// On a shared folder, whether to adopt now: a flush waits for it, or the interval passed.
    func isAdoptionDue(now: Instant) -> Bool {
        configuration.adoptsOrphans && (!flushesAwaitingAdoption.isEmpty || now >= nextAdoption)
    }

    /// A wait that also ends for the next adoption on a shared folder.
    func waitForInput(until: Instant?) -> Step {
        guard configuration.adoptsOrphans else { return .wait(until: until) }
        return .wait(until: min(until ?? nextAdoption, nextAdoption))
    }
}
