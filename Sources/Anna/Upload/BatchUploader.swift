import Dispatch
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The uploader of a ``DurableProvider``, whatever its collector: a driver. One thread performs what its
/// ``UploadStateMachine`` decides — reads batches from the durable queue, sends them
/// one request at a time, acknowledges, counts, reports, holds, adopts, waits. It
/// makes no decision and keeps no state of its own: flushes, stops, purges,
/// suspensions, resumptions, network paths, backlogs and answers all go to the
/// machine, which owns the callers' continuations and the request in flight.
///
/// On a shared folder (``DeliveryStorage/shared(_:)``) it also takes the folder's
/// upload lock before each request and gives it back after, when the machine says
/// (``UploadStateMachine/Step/takeUploadLock``; while another process holds it the
/// machine sets when to try again, so no loop polls; a lease left in the lock file is
/// erased the same way, ``UploadStateMachine/Step/eraseUploadLease``), and adopts the
/// queues of processes that ended when the machine says (at start, before a flush's
/// round, every ``DurableProvider/Configuration/flushInterval``; while the folder's
/// `claim.lock` is busy the machine says when to go on,
/// ``UploadStateMachine/Step/resumeAdoption(from:withoutClaimLock:)``).
///
/// The thread blocks in one kind of wait only, on `wake`, for the machine's
/// ``UploadStateMachine/Step/wait(until:)``: it starts a request and does not wait
/// for it; URLSession's completion, on its own queue, is the machine's input
/// (``UploadStateMachine/requestCompleted(_:answer:)``), and the request's deadline
/// is the machine's (``UploadStateMachine/Step/timedOut(_:records:)``).
///
/// Threads: the machine is behind its lock (`machine`), taken for a few instructions
/// by callers (`flush`, `stop`, `purge`, `suspend`, `resume`, the queue's persist
/// handler, URLSession's completion) and the thread alike; callers then wake the thread with `wake`. The
/// batch read last, the thread's clock reads, adoption and the upload lock belong to
/// the uploader thread alone. Effects run outside the lock.
/// Every wait is on the monotonic clock (`DispatchTime`), never on the wall clock.
final class BatchUploader: Sendable {
    typealias Waiter = CheckedContinuation<Void, Never>
    typealias Machine = UploadStateMachine<SystemRandomNumberGenerator, Waiter, URLSessionTask>

    private let queue: DurableQueue
    /// The collector's wire protocol: bodies, headers, answers.
    private let wire: any CollectorWire
    private let configuration: DurableProvider.Configuration
    private let counters: LockedState<DurableProvider.Metrics>
    private let transport: CollectorTransport
    private let shared: SharedDeliveryFolder?
    private let wake = DispatchSemaphore(value: 0)
    /// Every upload decision, and whoever waits for one.
    private let machine: LockedState<Machine>

    init(
        wire: any CollectorWire, queue: DurableQueue, configuration: DurableProvider.Configuration,
        counters: LockedState<DurableProvider.Metrics>, shared: SharedDeliveryFolder? = nil
    ) {
        self.wire = wire
        self.shared = shared
        self.queue = queue
        self.configuration = configuration
        self.counters = counters
        transport = CollectorTransport(
            endpoint: wire.endpoint, headers: wire.headers, requestTimeout: configuration.requestTimeout)
        machine = LockedState(
            Machine(
                configuration: .init(configuration, adoptsOrphans: shared != nil, bodyOverhead: wire.bodyOverhead),
                random: SystemRandomNumberGenerator(),
                now: .now))
    }

    func start() {
        queue.setPersistHandler { [weak self] backlog in self?.noteBacklog(backlog) }
        let thread = Thread { [self] in run() }
        thread.name = "anna.http-uploader"
        thread.start()
    }

    /// The queue persisted or dropped records: wakes the thread only when its wait changes.
    private func noteBacklog(_ count: Int) {
        if machine.withLock({ $0.backlogChanged(count) }) { wake.signal() }
    }

    /// Feeds the machine a caller's input, performs what it returns, wakes the thread.
    private func feed(_ input: (inout Machine) -> [Machine.Effect]) {
        perform(machine.withLock(input), batch: [])
        wake.signal()
    }

    /// Returns after an upload round that started after the call ended (every
    /// batch sent, or an attempt failed); at once while backing off, suspended or stopped.
    func flush() async {
        await withCheckedContinuation { waiter in feed { $0.flushRequested(waiter, now: .now) } }
    }

    /// Makes a last upload round unless backing off or suspended, then ends the
    /// thread. Every caller returns once it has ended.
    func stop() async {
        await withCheckedContinuation { waiter in feed { $0.stopRequested(waiter) } }
    }

    /// Deletes every queued event so that none is sent after this returns: blocks new
    /// requests, cancels the one in flight (its answer is ignored), waits until the
    /// thread holds no records read before, purges the queue, then lets uploads resume.
    func purge() async {
        await withCheckedContinuation { waiter in feed { $0.purgeStarted(waiter) } }
        await queue.purge()
        // Ended processes' queues this one would adopt go too; live processes purge
        // their own when the opt-out reaches them.
        await shared?.purgeOrphans(own: queue, configuration: queue.configuration, errorHandler: storageErrorHandler)
        feed { machine in
            machine.purgeEnded()
            return []
        }
    }

    /// Cancels the request in flight, holds the thread and has it release the queue's
    /// storage, for an app about to be suspended. Returns once the storage is released,
    /// or once the app came back first (``resume()``), or at once when suspended
    /// already or stopped.
    func suspend() async {
        await withCheckedContinuation { waiter in feed { $0.suspendRequested(waiter) } }
    }

    /// The app came back after ``suspend()``: the thread retakes the storage and reads
    /// and sends again. Returns once the storage is retaken, or could not be (the
    /// error handler is told; a later call tries again); at once when it was never
    /// released, and after ``stop()``.
    func resume() async {
        await withCheckedContinuation { waiter in feed { $0.resumeRequested(waiter) } }
    }

    /// Whether the uploader is suspended, as its machine computes it from the storage.
    var isSuspended: Bool {
        machine.withLock { $0.isSuspended }
    }

    /// The app reported a new network path.
    func pathChanged(_ path: NetworkPath) {
        feed { $0.pathChanged(path) }
    }

    private var storageErrorHandler: (@Sendable (DurableStorageError) -> Void)? {
        guard let handler = configuration.errorHandler else { return nil }
        return { error in handler(.storage(error)) }
    }

    // MARK: The thread

    private func run() {
        // Wait for the queue's recovery, then send what earlier runs left at once.
        queue.syncNow()
        let recovered = queue.metrics.recovered
        machine.withLock { $0.recovered(recovered) }
        var batch: [DurableQueue.Record] = []
        while true {
            switch machine.withLock({ $0.next(now: .now) }) {
            case .read(let maxRecords, let maxBytes):
                batch = queue.readNow(maxRecords: maxRecords, maxBytes: maxBytes)
                let count = batch.count
                perform(machine.withLock { $0.batchRead(count: count, now: .now) }, batch: batch)
            case .send(let range):
                guard range.upperBound <= batch.count else {
                    // Not the batch the machine means: its records must never be sent.
                    machine.withLock { $0.abandonBatch() }
                    batch = []
                    continue
                }
                // Started, or refused because a hold began: either way the machine says what next.
                startRequest(batch[range])
            case .answer(let answer):
                releaseUploadLock()
                perform(machine.withLock { $0.answered(answer, now: .now) }, batch: batch)
            case .timedOut(let request, let records):
                // Its late completion finds it no longer in flight and is ignored.
                request.cancel()
                releaseUploadLock()
                let response = CollectorTransport.Response(
                    body: Data(), error: "no complete answer within the request timeout (\(configuration.requestTimeout))")
                let answer = wire.classify(response, records: records)
                perform(machine.withLock { $0.answered(answer, now: .now) }, batch: batch)
            case .takeUploadLock:
                let taken = shared?.tryLockUploads() ?? true
                perform(
                    machine.withLock { machine in
                        guard taken else { return machine.uploadLockBusy(now: .now) }
                        machine.uploadLockTaken()
                        return []
                    }, batch: batch)
            case .releaseUploadLock:
                releaseUploadLock()
            case .eraseUploadLease:
                let erased = shared?.eraseLease() ?? true
                machine.withLock { $0.uploadLeaseEraseTried(erased: erased, now: .now) }
            case .hold(let waiters):
                batch = []
                for waiter in waiters { waiter.resume() }
                wake.wait()
            case .holdEnded(let waiters):
                batch = []
                for waiter in waiters { waiter.resume() }
            case .adopt:
                perform(adopt(from: nil, withoutClaimLock: false), batch: batch)
            case .resumeAdoption(let name, let withoutClaimLock):
                perform(adopt(from: name, withoutClaimLock: withoutClaimLock), batch: batch)
            case .wait(let until):
                let timeout = until.map { DispatchTime.now() + max(.zero, $0 - .now).dispatchInterval } ?? .distantFuture
                _ = wake.wait(timeout: timeout)
            case .persist:
                queue.syncNow()
                perform(machine.withLock { $0.persisted(now: .now) }, batch: [])
            case .releaseStorage:
                batch = []
                queue.releaseLockNow()
                perform(machine.withLock { $0.storageReleased() }, batch: [])
            case .retakeStorage:
                let failure = retakeStorage()
                perform(machine.withLock { $0.storageRetaken(failure: failure) }, batch: [])
            case .finish(let waiters, let retakingStorage):
                // Released for a suspension: retaken just long enough to write what
                // waited in memory, if it can. Undelivered events stay for the next start.
                if retakingStorage { _ = retakeStorage() }
                queue.releaseLockNow()
                transport.invalidate()
                for waiter in waiters { waiter.resume() }
                return
            }
        }
    }

    /// Retakes the queue's storage; the error when it cannot.
    private func retakeStorage() -> DeliveryError? {
        do {
            try queue.reacquireLock()
            return nil
        } catch let error as DurableStorageError {
            return error.isLockConflict ? .storageLocked(error) : .storage(error)
        } catch {
            return nil
        }
    }

    /// On a shared folder, moves the records of ended processes' queues into this
    /// one, from the queue directory named `start` (`nil`: the first); a purge or a
    /// suspension that begins meanwhile cuts it short. Reports to the machine where it
    /// stopped when the folder's `claim.lock` was busy, or that it is done, and returns
    /// the effects.
    private func adopt(from start: String?, withoutClaimLock: Bool) -> [Machine.Effect] {
        guard let shared else { return machine.withLock { $0.adopted(now: .now) } }
        let adoption = shared.adoptOrphans(
            into: queue, configuration: queue.configuration, errorHandler: storageErrorHandler, from: start,
            withoutClaimLock: withoutClaimLock, shouldStop: { machine.withLock { $0.isHeld } })
        if adoption.records > 0 { counters.withLock { $0.adopted += adoption.records } }
        return machine.withLock { machine in
            guard let name = adoption.waitsForClaimLockAt else { return machine.adopted(now: .now) }
            machine.adoptionWaitsForClaimLock(at: name, now: .now)
            return []
        }
    }

    /// Performs the machine's effects, outside its lock.
    private func perform(_ effects: [Machine.Effect], batch: [DurableQueue.Record]) {
        for effect in effects {
            switch effect {
            case .acknowledge(let range, let delivered, let rejected, let tooLarge):
                guard range.upperBound <= batch.count else { continue }
                // Records the queue's caps deleted meanwhile are counted there already
                // (capacity, age): count only what this acknowledgement removed.
                var unremoved = range.count - queue.acknowledgeNow(batch[range])
                let counts = [delivered, rejected, tooLarge].map { count -> Int in
                    let taken = min(count, unremoved)
                    unremoved -= taken
                    return count - taken
                }
                counters.withLock { metrics in
                    metrics.delivered += counts[0]
                    if counts[1] > 0 { metrics.dropped[.rejected, default: 0] += counts[1] }
                    if counts[2] > 0 { metrics.dropped[.tooLarge, default: 0] += counts[2] }
                }
            case .report(let error):
                configuration.errorHandler?(error)
            case .countRetry:
                counters.withLock { $0.retried += 1 }
            case .resume(let waiters):
                for waiter in waiters { waiter.resume() }
            case .cancel(let request):
                request.cancel()
            }
        }
    }

    // MARK: One request

    /// Starts a request with records as one batch, unless a hold began before it could
    /// start. Waits for nothing: URLSession's completion is the machine's input
    /// (``UploadStateMachine/requestCompleted(_:answer:)``), and the thread's wait ends
    /// with it or at the request's deadline.
    private func startRequest(_ records: ArraySlice<DurableQueue.Record>) {
        let body = wire.body(records.lazy.map(\.payload), sentAt: Date())
        // Compressed after the batch was cut by its uncompressed size (maxBatchSize),
        // the limit collectors apply to the JSON.
        let compressed = configuration.compressesRequests && wire.acceptsGzip ? Gzip.compress(body) : nil
        let count = records.count
        transport.start(
            Data(compressed ?? body), gzipped: compressed != nil,
            // Registered under the machine's lock, so a hold that begins next cancels it.
            register: { task in machine.withLock { $0.requestStarting(task, now: .now) } },
            completion: { [weak self] task, response in
                guard let self else { return }
                let answer = wire.classify(response, records: count)
                if machine.withLock({ $0.requestCompleted(task, answer: answer) }) { wake.signal() }
            })
    }

    /// On a shared folder, gives the folder's upload lock back (held for one request).
    /// A lease left in `upload.lock` is erased later, when the machine says
    /// (``UploadStateMachine/Step/eraseUploadLease``).
    private func releaseUploadLock() {
        guard let shared else { return }
        let erased = shared.unlockUploads()
        machine.withLock { machine in
            machine.uploadLockReleased()
            if !erased { machine.uploadLeaseLeft(now: .now) }
        }
    }
}
