import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The uploader of an ``HTTPBatchProvider``: one thread that reads batches from the
/// durable queue, sends them one request at a time, and acknowledges, drops, splits
/// or retries them by the collector's answer.
///
/// `@unchecked Sendable`: the flags below are read and written only under
/// `condition`'s lock; the rest is immutable or used by the uploader thread alone.
final class BatchUploader: @unchecked Sendable {
    private let endpoint: URL
    private let authorization: String
    private let queue: DurableQueue
    private let configuration: HTTPBatchProvider.Configuration
    private let counters: LockedState<HTTPBatchProvider.Metrics>
    private let session: URLSession
    private let condition = NSCondition()

    // Under `condition`.
    private var backlog = 0
    private var flushRequested = false
    private var flushWaiters: [CheckedContinuation<Void, Never>] = []
    private var stopping = false
    private var stopWaiter: CheckedContinuation<Void, Never>?
    private var stopped = false
    private var backoffUntil = Date.distantPast
    /// The last drain failed: retry as soon as the backoff ends, whatever the triggers say.
    private var retryPending = false
    private var lastAttempt = Date()

    // The uploader thread's own.
    private var failures = 0
    private var random = SystemRandomNumberGenerator()

    init(
        endpoint: URL, writeKey: String, queue: DurableQueue, configuration: HTTPBatchProvider.Configuration,
        counters: LockedState<HTTPBatchProvider.Metrics>
    ) {
        self.endpoint = endpoint
        self.authorization = "Basic " + Data("\(writeKey):".utf8).base64EncodedString()
        self.queue = queue
        self.configuration = configuration
        self.counters = counters
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.timeoutIntervalForRequest = configuration.requestTimeout.timeInterval
        sessionConfiguration.httpMaximumConnectionsPerHost = 1
        sessionConfiguration.urlCache = nil
        session = URLSession(configuration: sessionConfiguration)
    }

    func start() {
        queue.setPersistHandler { [weak self] backlog in self?.noteBacklog(backlog) }
        let thread = Thread { [self] in
            // Wait for the queue's recovery, then send what earlier runs left at once.
            queue.syncNow()
            let recovered = queue.metrics.recovered
            condition.lock()
            backlog = max(backlog, recovered)
            if recovered > 0 { flushRequested = true }
            condition.unlock()
            run()
        }
        thread.name = "anna.http-uploader"
        thread.start()
    }

    private func noteBacklog(_ count: Int) {
        condition.lock()
        // Wake the thread when the count triggers an upload, or when the interval's
        // deadline starts to matter (the backlog was empty).
        let wake = count >= configuration.flushAt || (backlog == 0 && count > 0)
        backlog = count
        if wake { condition.signal() }
        condition.unlock()
    }

    /// Uploads until the queue is empty or an attempt fails; at once while backing off.
    func flush() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            condition.lock()
            if stopped || Date() < backoffUntil {
                condition.unlock()
                continuation.resume()
                return
            }
            flushWaiters.append(continuation)
            flushRequested = true
            condition.signal()
            condition.unlock()
        }
    }

    /// Makes a last attempt unless backing off, then ends the thread.
    func stop() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            condition.lock()
            if stopped {
                condition.unlock()
                continuation.resume()
                return
            }
            stopping = true
            stopWaiter = continuation
            condition.signal()
            condition.unlock()
        }
    }

    // MARK: The thread

    private func run() {
        while true {
            condition.lock()
            while !stopping {
                let now = Date()
                let due = lastAttempt.addingTimeInterval(configuration.flushInterval.timeInterval)
                if now >= backoffUntil
                    && (flushRequested || retryPending || backlog >= configuration.flushAt || (backlog > 0 && now >= due))
                {
                    break
                }
                if flushRequested && now < backoffUntil {
                    // The last attempt failed; a flush does not hammer the collector.
                    let waiters = flushWaiters
                    flushWaiters = []
                    flushRequested = false
                    for waiter in waiters { waiter.resume() }
                }
                // Never `distantFuture`: corelibs Foundation overflows converting it.
                let idle = now.addingTimeInterval(3600)
                let wake = now < backoffUntil ? backoffUntil : (backlog > 0 ? min(due, idle) : idle)
                _ = condition.wait(until: min(wake, idle))
            }
            let isStopping = stopping
            let mayUpload = Date() >= backoffUntil
            flushRequested = false
            condition.unlock()

            let failed = mayUpload ? !drain() : retryPending

            condition.lock()
            retryPending = failed
            lastAttempt = Date()
            backlog = queue.metrics.backlog
            let waiters = flushWaiters
            flushWaiters = []
            var stopWaiter: CheckedContinuation<Void, Never>?
            if isStopping {
                stopped = true
                stopWaiter = self.stopWaiter
                self.stopWaiter = nil
            }
            condition.unlock()
            for waiter in waiters { waiter.resume() }
            if isStopping {
                session.finishTasksAndInvalidate()
                stopWaiter?.resume()
                return
            }
        }
    }

    /// Sends batches until none is left (`true`) or one fails (`false`).
    private func drain() -> Bool {
        let maxBytes = configuration.maxBatchSize - 64 - configuration.maxBatchCount
        while true {
            let records = queue.readNow(maxRecords: configuration.maxBatchCount, maxBytes: maxBytes)
            if records.isEmpty { return true }
            if !send(records[...]) { return false }
        }
    }

    /// Sends one batch and deals with the answer; `false` when it must be retried.
    private func send(_ records: ArraySlice<DurableQueue.Record>) -> Bool {
        switch upload(records) {
        case .accepted:
            queue.acknowledgeNow(records)
            failures = 0
            counters.withLock { $0.delivered += records.count }
            return true
        case .rejected(let status, let body):
            queue.acknowledgeNow(records)
            failures = 0
            counters.withLock { $0.dropped[.rejected, default: 0] += records.count }
            configuration.errorHandler?(.rejected(status: status, events: records.count, response: body))
            return true
        case .tooLarge:
            guard records.count > 1 else {
                queue.acknowledgeNow(records)
                counters.withLock { $0.dropped[.tooLarge, default: 0] += 1 }
                configuration.errorHandler?(.dropped(events: 1, reason: .tooLarge))
                return true
            }
            let middle = records.startIndex + records.count / 2
            return send(records[..<middle]) && send(records[middle...])
        case .retry(let status, let message, let retryAfter):
            failures += 1
            let delay = retryDelay(retryAfter: retryAfter)
            condition.lock()
            backoffUntil = Date().addingTimeInterval(delay)
            condition.unlock()
            counters.withLock { $0.retried += 1 }
            configuration.errorHandler?(.retrying(status: status, message: message, delay: delay))
            return false
        }
    }

    /// Full jitter: uniform in zero to the doubled delay, capped; or the server's
    /// `Retry-After`, capped by ``HTTPBatchProvider/Configuration/maxRetryAfter``.
    private func retryDelay(retryAfter: TimeInterval?) -> TimeInterval {
        if let retryAfter { return min(max(retryAfter, 0), configuration.maxRetryAfter.timeInterval) }
        let ceiling = min(
            configuration.maxRetryDelay.timeInterval,
            configuration.initialRetryDelay.timeInterval * pow(2, Double(min(failures - 1, 40))))
        return Double.random(in: 0...max(ceiling, 0.001), using: &random)
    }

    private enum Outcome {
        case accepted
        case rejected(status: Int, body: String)
        case tooLarge
        case retry(status: Int?, message: String, retryAfter: TimeInterval?)
    }

    private func upload(_ records: ArraySlice<DurableQueue.Record>) -> Outcome {
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

        var request = URLRequest(url: endpoint, timeoutInterval: configuration.requestTimeout.timeInterval)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(authorization, forHTTPHeaderField: "Authorization")
        request.setValue("\(AnalyticsContext.anna.name)/\(AnalyticsContext.anna.version)", forHTTPHeaderField: "User-Agent")
        request.httpBody = Data(body)

        let result = LockedState<(Data?, URLResponse?, (any Error)?)>((nil, nil, nil))
        let done = DispatchSemaphore(value: 0)
        session.dataTask(with: request) { data, response, error in
            result.withLock { $0 = (data, response, error) }
            done.signal()
        }.resume()
        done.wait()
        let (data, response, error) = result.withLock { $0 }

        guard let http = response as? HTTPURLResponse else {
            return .retry(status: nil, message: error.map { "\($0.localizedDescription)" } ?? "no response", retryAfter: nil)
        }
        let status = http.statusCode
        switch status {
        case 200..<300:
            return .accepted
        case 400:
            return .rejected(status: status, body: String(decoding: (data ?? Data()).prefix(512), as: UTF8.self))
        case 413:
            return .tooLarge
        default:
            let retryAfter = http.value(forHTTPHeaderField: "Retry-After").flatMap { Self.parseRetryAfter($0) }
            return .retry(status: status, message: HTTPURLResponse.localizedString(forStatusCode: status), retryAfter: retryAfter)
        }
    }

    /// `Retry-After` as delta-seconds or an HTTP-date (RFC 9110), as seconds from now.
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
