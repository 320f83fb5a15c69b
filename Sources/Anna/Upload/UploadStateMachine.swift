import Foundation

/// Every decision of the uploader, as a value: when to start an upload round, what
/// to send, what to acknowledge, drop or keep, how long to back off, when a flush
/// or stop is done, whether a purge or a suspension holds it. It does no I/O and
/// reads no clock: ``BatchUploader`` keeps it behind one lock, feeds it inputs
/// (backlog counts, flush, stop, purge, suspend and resume requests, batches read,
/// the collector's answers, monotonic time) and performs the steps and effects it
/// returns. Like async-http-client's state machines it owns its waiters (`Waiter`,
/// a continuation for the driver) and the request in flight (`Request`, to cancel):
/// no copy of its state exists elsewhere.
///
/// A round reads batches from the queue until one comes back empty (success) or an
/// attempt fails (backoff). A batch is sent whole, then in halves on 400 and 413,
/// front to back, so acknowledgements stay in queue order. A single event answered
/// 400 or 413 is held, and dropped only when the collector accepts something after
/// it or the batch ends; a run of ``Configuration/maxRejectedInARow`` single events
/// answered 400 means the collector rejects everything: keep them all, back off.
///
/// The network path is an input too: while it is unreachable no round starts and a
/// round under way ends after its request; when a path returns, a backoff that
/// attempts reaching no server began (the outage's) ends at once. On an expensive or
/// constrained path, ``Configuration/maxBacklogOnExpensivePath`` holds rounds while a
/// larger backlog waits.
///
/// Purges and suspensions hold it (``purgeStarted(_:)``, ``suspendRequested(_:)``):
/// the round under way is abandoned, its records must never be sent, the request in
/// flight is cancelled, and ``Step/hold(resuming:)`` hands the driver whoever waits
/// for the hold. On a shared folder it decides when to adopt
/// ended processes' queues (``Step/adopt``): at start, every flush interval, and
/// before a flush's round, so that the round sends what was adopted
/// (UploadStateMachine+Adoption.swift).
///
/// Time is `ContinuousClock.Instant` only, so a wall clock set back or forward
/// cannot stall or hurry an upload.
///
/// A value type with no shared state: its owner (the uploader's lock) guards it.
struct UploadStateMachine<Random: RandomNumberGenerator, Waiter, Request> {
    typealias Instant = ContinuousClock.Instant

    /// The collector's answer to one request, as the transport classified it.
    typealias Answer = CollectorTransport.Answer

    private enum Phase {
        case idle
        case reading
        case sending(Batch)
        case finished
    }

    let configuration: Configuration
    private var random: Random
    private var phase = Phase.idle
    private var backlog = 0
    private var lastRoundEnd: Instant
    private var backoffUntil: Instant?
    /// The backoff under way began with an attempt that reached no server (no
    /// connection, a timeout): a network path that returns or changes ends it.
    private var backoffIsOutage = false
    /// The network path the app reported; reachable until it says otherwise.
    private(set) var path = NetworkPath.reachable
    /// Consecutive failed attempts: the backoff doubles with each.
    private(set) var failures = 0
    /// Consecutive single events answered 400; any 2xx resets it.
    private(set) var rejectedInARow = 0
    /// Start a round as soon as allowed: after a failure, or with a recovered backlog.
    var roundWanted = false
    private var roundsStarted = 0
    private var roundsEnded = 0
    /// `flush()` callers with the number of rounds started when they called.
    private var flushWaiters: [(waiter: Waiter, roundsStarted: Int)] = []
    /// `stop()` callers.
    private var stopWaiters: [Waiter] = []
    /// Set by `stop()`: the round that must end before finishing.
    private(set) var stopAfterRound: Int?
    /// Purges under way (``purgeStarted(_:)``, ``purgeEnded()``).
    private var purges = 0
    /// Where the queue's storage is around a suspension, and what the app asked last.
    var storage = StorageOwnership()
    /// `suspend()` callers: resumed once the storage is released (or the app came back first).
    var suspendWaiters: [Waiter] = []
    /// `resume()` callers: resumed once the storage is retaken, or could not be.
    var resumeWaiters: [Waiter] = []
    /// The shared folder's upload lock: held, or when to try again.
    var uploadLock = UploadLockWait()
    /// Callers waiting until the hold holds no records: purges.
    private var holdWaiters: [Waiter] = []
    /// `flush()` callers whose round waits for the persist step (``Step/persist``).
    var flushesAwaitingPersist: [Waiter] = []
    /// The flush callers of the persist step under way.
    var persisting: [Waiter] = []
    /// A persist step is due: a flush or a stop asked for one.
    var persistDue = false
    /// The request in flight: for a hold to cancel, for its completion to be told
    /// from a cancelled one's, and the instant its whole answer is due.
    private var inFlight: (request: Request, deadline: Instant)?
    /// The answer of the request in flight, delivered (``requestCompleted(_:answer:)``)
    /// and not yet taken by the driver (``Step/answer(_:)``).
    private var arrived: Answer?
    /// When ended processes' queues are adopted next, on a shared folder.
    var nextAdoption: Instant
    /// `flush()` callers waiting for an adoption before their round.
    var flushesAwaitingAdoption: [Waiter] = []
    /// The adoption under way stopped at this queue directory (its name): the folder's
    /// `claim.lock` was busy, and the wait says when to go on.
    var adoptionWait: (directory: String, wait: ClaimLockWait)?

    init(configuration: Configuration, random: Random, now: Instant) {
        self.configuration = configuration
        self.random = random
        lastRoundEnd = now
        nextAdoption = now
    }

    // MARK: Inputs

    /// The queue's persisted, unacknowledged count changed.
    /// - Returns: Whether the driver must look again (``next(now:)``): only when the
    ///   count crossed what a step depends on (none to some, ``Configuration/flushAt``,
    ///   ``Configuration/maxBacklogOnExpensivePath`` on a costly path). A trickle of
    ///   events in between wakes no thread: the driver's wait stays what it was.
    @discardableResult
    mutating func backlogChanged(_ count: Int) -> Bool {
        let old = backlog
        let wasHeld = isHeldByPath
        backlog = max(0, count)
        return (old > 0) != (backlog > 0) || (old >= configuration.flushAt) != (backlog >= configuration.flushAt)
            || wasHeld != isHeldByPath
    }

    /// Events from an earlier run wait: upload them at once.
    mutating func recovered(_ count: Int) {
        backlog = max(backlog, count)
        if count > 0 { roundWanted = true }
    }

    /// Suspended (``suspendRequested(_:)``), or the storage not yet retaken after the
    /// app came back: computed from the storage's state, stored nowhere else.
    var isSuspended: Bool { storage.isSuspended }

    /// `flush()` was called: first what was received is persisted (``Step/persist``),
    /// then its waiter is resumed after a round that starts later ends; at once while
    /// suspended or stopped. On a shared folder, the round waits for an adoption first
    /// (``Step/adopt``).
    mutating func flushRequested(_ waiter: Waiter, now: Instant) -> [Effect] {
        if case .finished = phase { return [.resume([waiter])] }
        guard !isSuspended else { return [.resume([waiter])] }
        flushesAwaitingPersist.append(waiter)
        persistDue = true
        return []
    }

    /// What was received is persisted (after ``Step/persist``): the flushes that asked
    /// for it go on to their round, after an adoption on a shared folder; at once
    /// while backing off or held by the network path.
    mutating func persisted(now: Instant) -> [Effect] {
        let waiting = persisting
        persisting = []
        return waiting.flatMap { waiter -> [Effect] in
            if case .finished = phase { return [.resume([waiter])] }
            guard !isSuspended else { return [.resume([waiter])] }
            return flushRequestedAfterPersist(waiter, now: now)
        }
    }

    /// A flush whose events are persisted.
    private mutating func flushRequestedAfterPersist(_ waiter: Waiter, now: Instant) -> [Effect] {
        if configuration.adoptsOrphans && !isHeld {
            flushesAwaitingAdoption.append(waiter)
            return []
        }
        return flushRequestedAfterAdoption(waiter, now: now)
    }

    /// A flush whose adoption is done (or needs none).
    mutating func flushRequestedAfterAdoption(_ waiter: Waiter, now: Instant) -> [Effect] {
        if case .finished = phase { return [.resume([waiter])] }
        if let backoffUntil, now < backoffUntil { return [.resume([waiter])] }
        if isHeldByPath { return [.resume([waiter])] }
        flushWaiters.append((waiter, roundsStarted))
        return []
    }

    /// The network path changed. Unreachable: no round starts, a round under way
    /// ends after the request in flight, flush waiters return. Reachable again (or
    /// another path): a backoff the outage began ends, so the next round starts at
    /// once if one is due; a backoff a server asked for (429, 5xx) stands.
    mutating func pathChanged(_ newPath: NetworkPath) -> [Effect] {
        guard newPath != path else { return [] }
        path = newPath
        if newPath.isReachable && backoffIsOutage && backoffUntil != nil {
            backoffUntil = nil
            backoffIsOutage = false
            failures = 0
        }
        guard isHeldByPath, !flushWaiters.isEmpty else { return [] }
        defer { flushWaiters = [] }
        return [.resume(flushWaiters.map(\.waiter))]
    }

    /// No round may start: the path is unreachable, or expensive or constrained with
    /// more than ``Configuration/maxBacklogOnExpensivePath`` events waiting.
    private var isHeldByPath: Bool {
        if !path.isReachable { return true }
        guard path.isCostly, let limit = configuration.maxBacklogOnExpensivePath else { return false }
        return backlog > limit
    }

    /// `stop()` was called: persist what was received (``Step/persist``), then
    /// finish after a round that starts later, at once while backing off, held by the
    /// network path or suspended (``Step/finish(resuming:retakingStorage:)`` says what
    /// the storage needs). The waiter is resumed when the machine finishes (at once if it has).
    mutating func stopRequested(_ waiter: Waiter) -> [Effect] {
        if case .finished = phase { return [.resume([waiter])] }
        stopWaiters.append(waiter)
        if stopAfterRound == nil {
            stopAfterRound = roundsStarted + 1
            persistDue = true
        }
        return []
    }

    /// The records read for this round are gone (purged): forget them, ignore the
    /// answer of a request in flight, and start the round over.
    mutating func abandonBatch() {
        switch phase {
        case .reading, .sending:
            // The round restarts: a later round covers whoever waits.
            phase = .idle
            roundWanted = true
        case .idle, .finished:
            break
        }
    }

    /// The driver read `count` records (after ``Step/read(maxRecords:maxBytes:)``).
    mutating func batchRead(count: Int, now: Instant) -> [Effect] {
        guard case .reading = phase else { return [] }
        guard count > 0 else { return endRound(now: now) }
        phase = .sending(Batch(count: count, pending: [0..<count]))
        return []
    }

    /// The collector answered the request of the last ``Step/send(_:)``. Ignored when
    /// a hold abandoned the batch meanwhile: its records must not be acknowledged.
    mutating func answered(_ answer: Answer, now: Instant) -> [Effect] {
        inFlight = nil
        arrived = nil
        guard case .sending(var batch) = phase, let range = batch.pending.first else { return [] }
        var effects: [Effect] = []
        switch answer {
        case .accepted:
            batch.pending.removeFirst()
            failures = 0
            rejectedInARow = 0
            effects += batch.release(through: range.upperBound, delivered: range.count)
        case .rejected(let status, let body):
            if range.count > 1 {
                batch.split()
            } else {
                rejectedInARow += 1
                if rejectedInARow >= configuration.maxRejectedInARow {
                    let delay = backoff(retryAfter: nil)
                    return fail(
                        .collectorRejectsEverything(status: status, inARow: rejectedInARow, delay: delay.timeInterval),
                        delay: delay, now: now)
                }
                batch.pending.removeFirst()
                batch.heldRejected += 1
                batch.heldReports.append(.rejected(status: status, events: 1, response: Self.excerpt(body)))
            }
        case .tooLarge:
            if range.count > 1 {
                batch.split()
            } else {
                batch.pending.removeFirst()
                batch.heldTooLarge += 1
                batch.heldReports.append(.dropped(events: 1, reason: .tooLarge))
            }
        case .recordsRejected(let status, let reasons, let restAccepted):
            let refused = reasons.filter { $0.key >= 0 && $0.key < range.count }
            guard !refused.isEmpty else {
                // No index of this request: nothing named, so isolate them as a 400 does.
                return answered(.rejected(status: status, body: reasons.values.sorted().joined(separator: "; ")), now: now)
            }
            batch.pending.removeFirst()
            if restAccepted {
                // The others were ingested: acknowledge the request, dropping the refused.
                failures = 0
                rejectedInARow = 0
                batch.heldRejected += refused.count
                batch.heldReports += refused.sorted { $0.key < $1.key }.map { index, reason in
                    .rejected(status: status, events: 1, response: Self.excerpt("record \(index): \(reason)"))
                }
                effects += batch.release(through: range.upperBound, delivered: range.count - refused.count)
            } else {
                // Nothing was ingested: the refused are dropped in their turn, the rest sent again.
                batch.refuse(refused, of: range, status: status)
            }
        case .redirected(let status, let location):
            let delay = backoff(retryAfter: nil)
            let message = "redirects are not followed" + (location.map { " (Location: \(Self.excerpt($0)))" } ?? "")
            return fail(.retrying(status: status, message: message, delay: delay.timeInterval), delay: delay, now: now)
        case .failed(let status, let message, let retryAfter):
            let delay = backoff(retryAfter: retryAfter)
            return fail(
                .retrying(status: status, message: message, delay: delay.timeInterval), delay: delay, now: now,
                outage: status == nil)
        }
        batch.holdRefusedAtFront()
        if batch.pending.isEmpty {
            // The batch is done: drop what is held, then read on.
            effects += batch.release(through: batch.count, delivered: 0)
            phase = .reading
        } else {
            phase = .sending(batch)
        }
        return effects
    }

    // MARK: Holds: purges and suspensions

    /// Whether a purge or a suspension holds the uploader: no request may start, no
    /// adoption go on, no records stay read. The only place that knows.
    var isHeld: Bool {
        purges > 0 || isSuspended
    }

    /// A purge began: hold until ``purgeEnded()``. The waiter is resumed once the driver
    /// holds no records read before (``Step/hold(resuming:)``), at once when stopped.
    mutating func purgeStarted(_ waiter: Waiter) -> [Effect] {
        if case .finished = phase { return [.resume([waiter])] }
        purges += 1
        holdWaiters.append(waiter)
        return holdBegan()
    }

    /// The purge is done: the round it abandoned starts over once no hold remains.
    mutating func purgeEnded() {
        purges = max(0, purges - 1)
    }

    /// The driver is about to start the request for the last ``Step/send(_:)``:
    /// whether it may (no hold began since). The machine keeps it to cancel it when
    /// a hold begins, and waits for its completion (``requestCompleted(_:answer:)``)
    /// until ``Configuration/requestTimeout`` from `now` (``Step/timedOut(_:records:)``);
    /// ``answered(_:now:)`` forgets it.
    mutating func requestStarting(_ request: Request, now: Instant) -> Bool {
        guard mayStartRequest else { return false }
        inFlight = (request, now + configuration.requestTimeout)
        arrived = nil
        return true
    }

    /// Whether the batch of the last ``Step/send(_:)`` may still be sent: no request
    /// of it is in flight and no hold began.
    var mayStartRequest: Bool {
        guard !isHeld, inFlight == nil, case .sending = phase else { return false }
        return true
    }

    /// A hold began: abandon the round, cancel the request in flight.
    mutating func holdBegan() -> [Effect] {
        abandonBatch()
        arrived = nil
        guard let request = inFlight?.request else { return [] }
        inFlight = nil
        return [.cancel(request)]
    }

    /// The step while a request is in flight: its answer once it arrived, a timeout
    /// once its deadline passed, else a wait for either. Nothing else (an adoption, a
    /// path that went away, the upload lock's release) comes between a request and its
    /// answer; holds and stops come first (they cancel it).
    private mutating func nextInFlight(now: Instant) -> Step? {
        guard let (request, deadline) = inFlight else { return nil }
        if let answer = arrived {
            // Forgotten now: the answer is the driver's to report (``answered(_:now:)``).
            inFlight = nil
            arrived = nil
            return .answer(answer)
        }
        guard now < deadline else {
            inFlight = nil
            guard case .sending(let batch) = phase, let range = batch.pending.first else { return .timedOut(request, records: 0) }
            return .timedOut(request, records: range.count)
        }
        return .wait(until: deadline)
    }

    /// The step while held, if held, or to resume those who waited for a hold that
    /// ended before the driver asked (it holds no records read before). A stop during a suspension finishes at once:
    /// nothing may be sent while suspended, and the events stay for the next start.
    /// A stop during a purge waits for the purge to end.
    private mutating func nextHeld() -> Step? {
        guard isHeld else {
            guard !holdWaiters.isEmpty else { return nil }
            defer { holdWaiters = [] }
            return .holdEnded(resuming: holdWaiters)
        }
        abandonBatch()
        // An adoption waiting for `claim.lock` is cut short, as a hold cuts one under
        // way short; the next one starts from the first queue.
        adoptionWait = nil
        defer { holdWaiters = [] }
        return .hold(resuming: holdWaiters)
    }

    // MARK: The next step

    /// What the driver does now.
    mutating func next(now: Instant) -> Step {
        if let step = leaseEraseStep(now: now) { return step }
        if uploadLock.isHeld, inFlight == nil, !mayStartRequest || !path.isReachable || isAdoptionDue(now: now) {
            // Held for the next request only: given back when that request is not next.
            return .releaseUploadLock
        }
        let step = nextStep(now: now)
        if case .sending = phase {} else { uploadLock.reset() }
        return step
    }

    private mutating func nextStep(now: Instant) -> Step {
        if case .finished = phase { return .finish(resuming: [], retakingStorage: false) }
        // A stop during a suspension finishes at once: nothing may be sent while
        // suspended, and the events stay for the next start. One during a purge waits for it.
        if isSuspended, purges == 0, stopAfterRound != nil { return finish() }
        if let step = nextStorageStep() { return step }
        if let held = nextHeld() { return held }
        if let step = nextInFlight(now: now) { return step }
        if persistDue {
            persistDue = false
            persisting += flushesAwaitingPersist
            flushesAwaitingPersist = []
            return .persist
        }
        if isAdoptionDue(now: now) { return adoptionStep(now: now) }
        return nextUnheld(now: now)
    }

    private mutating func nextUnheld(now: Instant) -> Step {
        switch phase {
        case .finished:
            return .finish(resuming: [], retakingStorage: false)
        case .reading where !path.isReachable, .sending where !path.isReachable:
            // The path went away: end the round; what was read stays queued, unacknowledged.
            phase = .idle
            roundsEnded = roundsStarted
            lastRoundEnd = now
            roundWanted = true
            return nextUnheld(now: now)
        case .reading:
            return .read(maxRecords: configuration.maxBatchCount, maxBytes: configuration.maxBatchBytes)
        case .sending(let batch):
            guard let range = batch.pending.first else {
                phase = .reading
                return nextUnheld(now: now)
            }
            return sendStep(range, now: now)
        case .idle:
            if isHeldByPath {
                // No attempt without a path: the events stay for the next start, and
                // only an input (a new path, a backlog, a stop) wakes the driver.
                if stopAfterRound != nil {
                    return finish()
                }
                return waitForInput(until: nil)
            }
            if let backoffUntil, now < backoffUntil {
                // No last attempt while backing off: the events stay for the next start.
                if stopAfterRound != nil {
                    return finish()
                }
                return waitForInput(until: backoffUntil)
            }
            backoffUntil = nil
            if let stopAfterRound, roundsEnded >= stopAfterRound { return finish() }
            let due = lastRoundEnd + configuration.flushInterval
            let start =
                roundWanted || stopAfterRound != nil || !flushWaiters.isEmpty || backlog >= configuration.flushAt
                || (backlog > 0 && now >= due)
            guard start else { return waitForInput(until: backlog > 0 ? due : nil) }
            roundWanted = false
            roundsStarted += 1
            phase = .reading
            return nextUnheld(now: now)
        }
    }

    // MARK: Helpers

    /// Ends the machine and hands over every caller still waiting, and what the
    /// storage needs: retaken first when it is released (then persisted and released).
    mutating func finish() -> Step {
        phase = .finished
        let waiters =
            flushesAwaitingPersist + persisting + flushWaiters.map(\.waiter) + flushesAwaitingAdoption + holdWaiters
            + suspendWaiters + resumeWaiters + stopWaiters
        flushesAwaitingPersist = []
        persisting = []
        flushWaiters = []
        flushesAwaitingAdoption = []
        holdWaiters = []
        suspendWaiters = []
        resumeWaiters = []
        stopWaiters = []
        persistDue = false
        return .finish(resuming: waiters, retakingStorage: storage.state == .released)
    }

    /// Whether the machine finished (``Step/finish(resuming:retakingStorage:)``): every
    /// input after it orders nothing.
    var isFinished: Bool {
        if case .finished = phase { return true }
        return false
    }

    private mutating func endRound(now: Instant) -> [Effect] {
        phase = .idle
        // A read came back empty: what was persisted before it is delivered, so a
        // stale count cannot start round after empty round; the queue reports more.
        backlog = 0
        roundsEnded = roundsStarted
        lastRoundEnd = now
        // Waiters who called before this round started are covered by it.
        let covered = flushWaiters.filter { $0.roundsStarted < roundsEnded }
        flushWaiters.removeAll { $0.roundsStarted < roundsEnded }
        return covered.isEmpty ? [] : [.resume(covered.map(\.waiter))]
    }

    /// An attempt failed: keep what was not acknowledged, back off, release flush
    /// waiters. `outage`: the attempt reached no server.
    private mutating func fail(_ report: DeliveryError, delay: Duration, now: Instant, outage: Bool = false) -> [Effect] {
        phase = .idle
        roundsEnded = roundsStarted
        lastRoundEnd = now
        backoffUntil = now + delay
        backoffIsOutage = outage
        roundWanted = true
        var effects: [Effect] = [.report(report), .countRetry]
        if !flushWaiters.isEmpty {
            effects.append(.resume(flushWaiters.map(\.waiter)))
            flushWaiters = []
        }
        return effects
    }

    /// Full jitter: uniform from zero to the ceiling, which doubles with each
    /// consecutive failure from ``Configuration/initialRetryDelay`` up to
    /// ``Configuration/maxRetryDelay``. A server's `Retry-After` is honoured up to
    /// ``Configuration/maxRetryAfter`` but never below that ceiling, so `0`, negative
    /// values and past dates cannot make retries immediate.
    private mutating func backoff(retryAfter: TimeInterval?) -> Duration {
        failures += 1
        let initial = configuration.initialRetryDelay.timeInterval
        let ceiling = max(0.001, min(configuration.maxRetryDelay.timeInterval, initial * pow(2, Double(min(failures - 1, 40)))))
        guard let retryAfter else { return .seconds(Double.random(in: 0...ceiling, using: &random)) }
        let honoured = min(retryAfter.isFinite ? retryAfter : 0, configuration.maxRetryAfter.timeInterval)
        return .seconds(max(ceiling, honoured))
    }
}

extension UploadStateMachine where Request: Equatable {
    /// URLSession completed `request` with `answer` (the delegate's input): kept for the
    /// driver when it is the request in flight. A cancelled or timed-out request's late
    /// completion is not, and is ignored.
    /// - Returns: Whether the driver must look again (``next(now:)``).
    mutating func requestCompleted(_ request: Request, answer: Answer) -> Bool {
        guard let inFlight, inFlight.request == request, arrived == nil else { return false }
        arrived = answer
        return true
    }
}
