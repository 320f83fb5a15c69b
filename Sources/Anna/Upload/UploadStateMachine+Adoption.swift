/// Adoption: the schedule of adopting ended processes' queues on a shared folder.
/// Decisions only; ``BatchUploader`` performs the adoption.
extension UploadStateMachine {
    /// The driver adopted ended processes' queues (after ``Step/adopt``): the flushes
    /// that waited for it take their round now.
    mutating func adopted(now: Instant) -> [Effect] {
        nextAdoption = now + configuration.flushInterval
        let waiting = flushesAwaitingAdoption
        flushesAwaitingAdoption = []
        return waiting.flatMap { flushRequestedAfterAdoption($0, now: now) }
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
