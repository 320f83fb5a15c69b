/// What the machine asks of its driver: the next step, and the effects of an input.
extension UploadStateMachine {
    /// What the driver does next.
    enum Step {
        /// Read the next batch from the queue and report its count with ``batchRead(count:now:)``.
        case read(maxRecords: Int, maxBytes: Int)
        /// Send these records of the batch read last: start the request with
        /// ``requestStarting(_:now:)``, then ask again (the machine waits for its answer).
        case send(Range<Int>)
        /// The answer of the request in flight arrived (``requestCompleted(_:answer:)``):
        /// on a shared folder give the upload lock back (``uploadLockReleased()``, and
        /// ``uploadLeaseLeft(now:)`` when its lease stays for now), then report it with
        /// ``answered(_:now:)``.
        case answer(Answer)
        /// The request in flight, of this many records, has no complete answer by its
        /// deadline: cancel it (its late completion is ignored), give the upload lock back
        /// on a shared folder, then report the timeout with ``answered(_:now:)``.
        case timedOut(Request, records: Int)
        /// Wait for an input or until the instant (`nil`: for an input).
        case wait(until: Instant?)
        /// A purge or a suspension holds the uploader: forget the batch read last,
        /// resume these callers waiting for the hold (no records are held), wait for an input.
        case hold(resuming: [Waiter])
        /// A hold began and ended while the driver was busy: forget the batch read
        /// last, resume these callers waiting for the hold, then ask again.
        case holdEnded(resuming: [Waiter])
        /// On a shared folder, before a send: try to take the folder's upload lock, then
        /// report ``uploadLockTaken()`` or ``uploadLockBusy(now:)``.
        case takeUploadLock
        /// Give the shared folder's upload lock back, then report ``uploadLockReleased()``,
        /// and ``uploadLeaseLeft(now:)`` when its lease could not be erased yet.
        case releaseUploadLock
        /// Try once, without waiting, to erase the lease giving the upload lock back
        /// left in `upload.lock`, then report ``uploadLeaseEraseTried(erased:now:)``.
        case eraseUploadLease
        /// Move ended processes' queues into this one, then report ``adopted(now:)``, or
        /// ``adoptionWaitsForClaimLock(at:now:)`` when it stopped at a queue whose lock
        /// waits for the folder's `claim.lock`.
        case adopt
        /// Go on with the adoption that stopped at the queue directory named `from`,
        /// taking that queue's lock without `claim.lock` when `withoutClaimLock` (its
        /// wait ran out); then report as after ``adopt``.
        case resumeAdoption(from: String, withoutClaimLock: Bool)
        /// Write and sync what the queue received, then report ``persisted(now:)``: the
        /// start of a flush's or a stop's round.
        case persist
        /// A suspension: release the queue's storage (write what it buffered, close its
        /// files, unlock), then report ``storageReleased()``.
        case releaseStorage
        /// The app came back: retake the queue's storage, then report
        /// ``storageRetaken(failure:)`` with the error if it could not.
        case retakeStorage
        /// Stop: retake the storage if `retakingStorage` (it was released for a
        /// suspension), release it (what it buffered is written), end the thread, then
        /// resume these waiters: every caller still waiting.
        case finish(resuming: [Waiter], retakingStorage: Bool)
    }

    /// What the driver does on the side, in order.
    enum Effect {
        /// Acknowledge these records of the batch read last; count them.
        case acknowledge(Range<Int>, delivered: Int, rejected: Int, tooLarge: Int)
        /// Pass this to the error handler.
        case report(DeliveryError)
        /// Count a failed attempt (``DurableProvider/Metrics/retried``).
        case countRetry
        /// Resume these callers.
        case resume([Waiter])
        /// Cancel this request in flight: a hold began, its answer is ignored.
        case cancel(Request)
    }
}

extension UploadStateMachine.Step: Equatable where Waiter: Equatable, Request: Equatable {}
