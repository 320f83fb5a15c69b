/// Adoption: the schedule of adopting ended processes' queues on a shared folder.
/// Decisions only; ``BatchUploader`` performs the adoption.
extension UploadStateMachine {
    /// The driver adopted ended processes' queues (after ``Step/adopt``): the flushes
    /// that waited for it take their round now.
    mutating func adopted(now: Instant) -> [Effect] {
        adoptionWait = nil
        nextAdoption = now + configuration.flushInterval
        let waiting = flushesAwaitingAdoption
        flushesAwaitingAdoption = []
        return waiting.flatMap { flushRequestedAfterAdoption($0, now: now) }
    }

    /// The driver's adoption stopped at the queue directory `name` (after ``Step/adopt``
    /// or ``Step/resumeAdoption(from:withoutClaimLock:)``): the folder's `claim.lock`
    /// was busy. It goes on from there after a pause, or without `claim.lock` for that
    /// queue once ``ClaimLockWait/patience`` has passed, as the driver's loop did before.
    mutating func adoptionWaitsForClaimLock(at name: String, now: Instant) {
        if adoptionWait?.directory == name {
            adoptionWait?.wait.busy(now: now)
        } else {
            adoptionWait = (name, ClaimLockWait(busyAt: now))
        }
    }

    /// On a shared folder, whether to adopt now: a flush waits for it, the interval
    /// passed, or an adoption under way waits for `claim.lock`.
    func isAdoptionDue(now: Instant) -> Bool {
        configuration.adoptsOrphans && (!flushesAwaitingAdoption.isEmpty || now >= nextAdoption || adoptionWait != nil)
    }

    /// The step of a due adoption: from the first queue, or on from the one that waits
    /// for `claim.lock`, when its pause is over.
    func adoptionStep(now: Instant) -> Step {
        guard let (name, wait) = adoptionWait else { return .adopt }
        if let retryAt = wait.retryAt, now < retryAt { return .wait(until: retryAt) }
        return .resumeAdoption(from: name, withoutClaimLock: wait.isOver)
    }

    /// A wait that also ends for the next adoption on a shared folder.
    func waitForInput(until: Instant?) -> Step {
        guard configuration.adoptsOrphans else { return .wait(until: until) }
        return .wait(until: min(until ?? nextAdoption, nextAdoption))
    }
}
