import Dispatch
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The uploader of an ``HTTPBatchProvider``: one thread that performs what its
/// ``UploadStateMachine`` decides — reads batches from the durable queue, sends
/// them one request at a time, acknowledges, counts, reports, holds, adopts, waits.
/// It makes no decision of its own: purges, suspensions and adoption are inputs and
/// steps of the machine too.
///
/// On a shared folder (``DeliveryStorage/shared(_:)``) it also holds the folder's
/// upload lock around each request, and adopts the queues of processes that ended
/// when the machine says (at start, before a flush's round, every
/// ``HTTPBatchProvider/Configuration/flushInterval``).
///
/// Threads: the machine, the batch read last, the thread's clock reads, adoption and
/// the upload lock belong to the uploader thread alone. Callers (`flush`, `stop`,
/// `purge`, `suspend`, the queue's persist handler) meet it in `inbox`, under its
/// lock, and wake it with `wake`.
/// Every wait is on the monotonic clock (`DispatchTime`), never on the wall clock.
final class BatchUploader: Sendable {
    typealias Machine = UploadStateMachine<SystemRandomNumberGenerator>

    private let queue: DurableQueue
    private let configuration: HTTPBatchProvider.Configuration
    private let counters: LockedState<HTTPBatchProvider.Metrics>
    private let transport: CollectorTransport
    private let shared: SharedDeliveryFolder?
    private let wake = DispatchSemaphore(value: 0)
    private let inbox = LockedState(Inbox())

    /// What callers hand to the uploader thread.
    private struct Inbox {
        var backlog: Int?
        /// Flush ids not yet given to the machine.
        var newFlushes: [UInt64] = []
        var flushWaiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextFlushID: UInt64 = 0
        var stopRequested = false
        var stopWaiters: [CheckedContinuation<Void, Never>] = []
        var stopped = false
        /// Purges under way: no request may start.
        var pauses = 0
        var pauseWaiters: [CheckedContinuation<Bool, Never>] = []
        /// The request in flight, for a purge to cancel.
        var inFlight: URLSessionTask?
        /// The app is suspended: no request may start, nothing is held, until `resume`.
        var suspended = false
        /// The network path the app reported last, not yet given to the machine.
        var path: NetworkPath?
    }

    /// Whether requests must wait: a purge or a suspension is under way.
    private static func isHeld(_ inbox: Inbox) -> Bool {
        inbox.pauses > 0 || inbox.suspended
    }

    init(
        endpoint: URL, writeKey: String, queue: DurableQueue, configuration: HTTPBatchProvider.Configuration,
        counters: LockedState<HTTPBatchProvider.Metrics>, shared: SharedDeliveryFolder? = nil
    ) {
        self.shared = shared
        self.queue = queue
        self.configuration = configuration
        self.counters = counters
        transport = CollectorTransport(endpoint: endpoint, writeKey: writeKey, requestTimeout: configuration.requestTimeout)
    }

    func start() {
        queue.setPersistHandler { [weak self] backlog in self?.noteBacklog(backlog) }
        let thread = Thread { [self] in run() }
        thread.name = "anna.http-uploader"
        thread.start()
    }

    private func noteBacklog(_ count: Int) {
        inbox.withLock { $0.backlog = count }
        wake.signal()
    }

    /// Returns after an upload round that started after the call ended (every
    /// batch sent, or an attempt failed); at once while backing off or stopped.
    func flush() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let stopped = inbox.withLock { inbox -> Bool in
                if inbox.stopped { return true }
                let id = inbox.nextFlushID
                inbox.nextFlushID += 1
                inbox.flushWaiters[id] = continuation
                inbox.newFlushes.append(id)
                return false
            }
            if stopped { continuation.resume() } else { wake.signal() }
        }
    }

    /// Makes a last upload round unless backing off, then ends the thread. Every
    /// caller returns once it has ended.
    func stop() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let stopped = inbox.withLock { inbox -> Bool in
                if inbox.stopped { return true }
                inbox.stopRequested = true
                inbox.stopWaiters.append(continuation)
                return false
            }
            if stopped { continuation.resume() } else { wake.signal() }
        }
    }

    /// Deletes every queued event so that none is sent after this returns: blocks new
    /// requests, cancels the one in flight (its answer is ignored), waits until the
    /// thread holds no records read before, purges the queue, then lets uploads resume.
    func purge() async {
        let paused = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let stopped = inbox.withLock { inbox -> Bool in
                if inbox.stopped { return true }
                inbox.pauses += 1
                inbox.pauseWaiters.append(continuation)
                inbox.inFlight?.cancel()
                return false
            }
            if stopped { continuation.resume(returning: false) } else { wake.signal() }
        }
        await queue.purge()
        // Ended processes' queues this one would adopt go too; live processes purge
        // their own when the opt-out reaches them.
        await shared?.purgeOrphans(own: queue, configuration: queue.configuration, errorHandler: storageErrorHandler)
        if paused {
            inbox.withLock { $0.pauses -= 1 }
            wake.signal()
        }
    }

    /// Cancels the request in flight and holds the thread, holding no lock and no
    /// records, until ``resume()``: for an app about to be suspended. Returns once
    /// the thread is held (or has ended).
    func suspend() async {
        _ = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let stopped = inbox.withLock { inbox -> Bool in
                if inbox.stopped { return true }
                inbox.suspended = true
                inbox.pauseWaiters.append(continuation)
                inbox.inFlight?.cancel()
                return false
            }
            if stopped { continuation.resume(returning: false) } else { wake.signal() }
        }
    }

    /// The app reported a new network path.
    func pathChanged(_ path: NetworkPath) {
        inbox.withLock { $0.path = path }
        wake.signal()
    }

    /// Lets the thread read and send again after ``suspend()``.
    func resume() {
        inbox.withLock { $0.suspended = false }
        wake.signal()
    }

    private var storageErrorHandler: (@Sendable (DurableStorageError) -> Void)? {
        guard let handler = configuration.errorHandler else { return nil }
        return { error in handler(.storage(error)) }
    }

    // MARK: The thread

    private func run() {
        // Wait for the queue's recovery, then send what earlier runs left at once.
        queue.syncNow()
        var machine = UploadStateMachine(
            configuration: .init(configuration, adoptsOrphans: shared != nil), random: SystemRandomNumberGenerator(),
            now: .now)
        machine.recovered(queue.metrics.recovered)
        var batch: [DurableQueue.Record] = []
        while true {
            takeInbox(into: &machine, batch: batch)
            switch machine.next(now: .now) {
            case .read(let maxRecords, let maxBytes):
                batch = queue.readNow(maxRecords: maxRecords, maxBytes: maxBytes)
                perform(machine.batchRead(count: batch.count, now: .now), batch: batch)
            case .send(let range):
                guard range.upperBound <= batch.count, let answer = exchange(batch[range]) else {
                    // A hold began (or the batch is not the one the machine means):
                    // its records must never be sent, so the round starts over, as the
                    // machine would decide once the next turn gives it the hold.
                    machine.abandonBatch()
                    batch = []
                    continue
                }
                perform(machine.answered(answer, now: .now), batch: batch)
            case .hold:
                batch = []
                let waiters = inbox.withLock { inbox in
                    defer { inbox.pauseWaiters = [] }
                    return inbox.pauseWaiters
                }
                for waiter in waiters { waiter.resume(returning: true) }
                wake.wait()
            case .adopt:
                adopt()
                perform(machine.adopted(now: .now), batch: batch)
            case .wait(let until):
                let timeout = until.map { DispatchTime.now() + max(.zero, $0 - .now).dispatchInterval } ?? .distantFuture
                _ = wake.wait(timeout: timeout)
            case .finish:
                finish()
                return
            }
        }
    }

    /// On a shared folder, moves the records of ended processes' queues into this
    /// one; a purge or a suspension that begins meanwhile cuts it short.
    private func adopt() {
        guard let shared else { return }
        let adoption = shared.adoptOrphans(
            into: queue, configuration: queue.configuration, errorHandler: storageErrorHandler,
            shouldStop: { inbox.withLock { Self.isHeld($0) } })
        if adoption.records > 0 { counters.withLock { $0.adopted += adoption.records } }
    }

    /// Hands what callers left in the inbox to the machine.
    private func takeInbox(into machine: inout Machine, batch: [DurableQueue.Record]) {
        let (backlog, flushes, stop, path, purging, suspended) = inbox.withLock { inbox in
            defer {
                inbox.backlog = nil
                inbox.path = nil
                inbox.newFlushes = []
            }
            return (inbox.backlog, inbox.newFlushes, inbox.stopRequested, inbox.path, inbox.pauses > 0, inbox.suspended)
        }
        if let backlog { machine.backlogChanged(backlog) }
        if stop { machine.stopRequested() }
        machine.holdChanged(purging: purging, suspended: suspended)
        if let path { perform(machine.pathChanged(path), batch: batch) }
        let now = ContinuousClock.now
        for id in flushes { perform(machine.flushRequested(id: id, now: now), batch: batch) }
    }

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
            case .resumeFlushWaiters(let ids):
                let waiters = inbox.withLock { inbox in ids.compactMap { inbox.flushWaiters.removeValue(forKey: $0) } }
                for waiter in waiters { waiter.resume() }
            }
        }
    }

    private func finish() {
        let (stopWaiters, flushWaiters, pauseWaiters) = inbox.withLock { inbox in
            inbox.stopped = true
            defer {
                inbox.stopWaiters = []
                inbox.flushWaiters = [:]
                inbox.pauseWaiters = []
            }
            return (inbox.stopWaiters, Array(inbox.flushWaiters.values), inbox.pauseWaiters)
        }
        transport.invalidate()
        for waiter in flushWaiters { waiter.resume() }
        for waiter in pauseWaiters { waiter.resume(returning: true) }
        for waiter in stopWaiters { waiter.resume() }
    }

    // MARK: One request

    /// Sends records as one batch; `nil` when a purge began before or during it.
    private func exchange(_ records: ArraySlice<DurableQueue.Record>) -> Machine.Answer? {
        var body: [UInt8] = []
        body.reserveCapacity(records.reduce(64) { $0 + $1.payload.count + 1 })
        body.append(contentsOf: #"{"batch":["#.utf8)
        for (index, record) in records.enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body.append(contentsOf: record.payload)
        }
        body.append(contentsOf: #"],"sentAt":""#.utf8)
        TrackingAPIEncoder.timestamp(Date(), into: &body)
        body.append(contentsOf: #""}"#.utf8)

        if let shared {
            switch lockUploads(shared) {
            case .locked: break
            case .held: return nil
            case .busy:
                return .failed(status: nil, message: "another process of the shared folder is uploading", retryAfter: nil)
            }
        }
        defer { shared?.unlockUploads() }
        // Compressed after the batch was cut by its uncompressed size (maxBatchSize),
        // the limit collectors apply to the JSON.
        let compressed = configuration.compressesRequests ? Gzip.compress(body) : nil
        let response = transport.send(Data(compressed ?? body), gzipped: compressed != nil) { task in
            inbox.withLock { inbox in
                guard !Self.isHeld(inbox) else { return false }
                inbox.inFlight = task
                task.resume()
                return true
            }
        }
        let interrupted = inbox.withLock { inbox in
            inbox.inFlight = nil
            return Self.isHeld(inbox)
        }
        guard let response, !interrupted else { return nil }
        return Self.classify(response)
    }

    private enum UploadLock { case locked, held, busy }

    /// Waits for the shared folder's upload lock, polling: at most about one request's
    /// time (another process holds it for one request at a time), and not while a
    /// purge or a suspension is under way.
    private func lockUploads(_ shared: SharedDeliveryFolder) -> UploadLock {
        let deadline = ContinuousClock.now + configuration.requestTimeout + .seconds(1)
        while true {
            if inbox.withLock({ Self.isHeld($0) }) { return .held }
            if shared.tryLockUploads() { return .locked }
            if ContinuousClock.now >= deadline { return .busy }
            // A wake-up taken here is harmless: the loop reads the inbox after the request.
            _ = wake.wait(timeout: .now() + .milliseconds(5))
        }
    }

    /// The machine's view of a response.
    static func classify(_ response: CollectorTransport.Response) -> Machine.Answer {
        guard let status = response.status else {
            return .failed(status: nil, message: response.error ?? "no response", retryAfter: nil)
        }
        switch status {
        case 300..<400:
            return .redirected(status: status, location: response.location)
        case _ where response.error != nil:
            // A cut answer is no acceptance: retried, the collector drops duplicates by message id.
            return .failed(status: status, message: response.error ?? "", retryAfter: nil)
        case 200..<300:
            return .accepted
        case 400:
            return .rejected(status: status, body: String(decoding: response.body.prefix(512), as: UTF8.self))
        case 413:
            return .tooLarge
        default:
            return .failed(
                status: status, message: HTTPURLResponse.localizedString(forStatusCode: status),
                retryAfter: response.retryAfter.flatMap { parseRetryAfter($0) })
        }
    }

    /// `Retry-After` as delta-seconds or an HTTP-date (RFC 9110), as seconds from now,
    /// at least zero (the state machine raises it to the backoff's floor).
    static func parseRetryAfter(_ value: String, now: Date = Date()) -> TimeInterval? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed) { return TimeInterval(max(seconds, 0)) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: trimmed) { return max(0, date.timeIntervalSince(now)) }
        }
        return nil
    }
}
