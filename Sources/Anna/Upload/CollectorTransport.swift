import Dispatch
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Starts one batch request to the collector and hands its whole answer to a
/// completion. Never follows a redirect: the 3xx itself is the answer, so the body
/// and the write key never leave for another URL. It waits for nothing: the upload
/// machine bounds the whole exchange by ``DurableProvider/Configuration/requestTimeout``
/// (URLSession's own timeout only limits the time between bytes) and cancels it.
///
/// ``start(_:gzipped:register:completion:)`` runs on the uploader thread; URLSession
/// calls the delegate on its own queue. The two meet in an ``Exchange`` per request,
/// found by task id under `exchanges`' lock.
package final class CollectorTransport: Sendable {
    /// The collector's answer, or why there is none.
    package struct Response {
        /// The HTTP status, when the collector answered.
        package var status: Int?
        /// The `Location` header.
        package var location: String?
        /// The `Retry-After` header.
        package var retryAfter: String?
        /// The first ``CollectorTransport/maxBodyBytes`` bytes of the body.
        package var body: Data
        /// Why there is no complete answer.
        package var error: String?

        /// Creates a response.
        package init(status: Int? = nil, location: String? = nil, retryAfter: String? = nil, body: Data, error: String? = nil) {
            self.status = status
            self.location = location
            self.retryAfter = retryAfter
            self.body = body
            self.error = error
        }
    }

    /// A collector's body is kept for an excerpt in reports and for the records it names
    /// (Amplitude's and Mixpanel's per-record errors for up to 2,000 events).
    static let maxBodyBytes = 65_536

    private let endpoint: URL
    private let headers: [(name: String, value: String)]
    private let requestTimeout: Duration
    private let session: URLSession
    private let delegate: Delegate

    init(endpoint: URL, headers: [(name: String, value: String)], requestTimeout: Duration) {
        self.endpoint = endpoint
        self.headers = headers
        self.requestTimeout = requestTimeout
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = requestTimeout.timeInterval
        configuration.httpMaximumConnectionsPerHost = 1
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        delegate = Delegate()
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    /// Starts a request with `body`, gzip-compressed when `gzipped` says so, and calls
    /// `completion` on URLSession's queue with the task and its answer (a cancelled
    /// task's too). `register` decides whether the task starts: it records it under
    /// its caller's lock, so that a purge can cancel it, and returns `false` to refuse
    /// (then nothing is sent and `completion` is never called). Returns at once.
    func start(
        _ body: Data, gzipped: Bool, register: (URLSessionTask) -> Bool,
        completion: @escaping @Sendable (URLSessionTask, Response) -> Void
    ) {
        var request = URLRequest(url: endpoint, timeoutInterval: requestTimeout.timeInterval)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if gzipped { request.setValue("gzip", forHTTPHeaderField: "Content-Encoding") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.setValue("\(AnalyticsContext.anna.name)/\(AnalyticsContext.anna.version)", forHTTPHeaderField: "User-Agent")
        request.httpBody = body

        let task = session.dataTask(with: request)
        delegate.exchanges.withLock { $0[task.taskIdentifier] = Exchange(completion: completion) }
        guard register(task) else {
            delegate.exchanges.withLock { _ = $0.removeValue(forKey: task.taskIdentifier) }
            return
        }
        // Resumed outside the caller's lock; a task cancelled before this ends as cancelled.
        task.resume()
    }

    /// Cancels what is in flight and lets the session go.
    func invalidate() {
        session.invalidateAndCancel()
    }

    /// One request's answer as the delegate collects it, and who receives it.
    final class Exchange: Sendable {
        struct State {
            var response: HTTPURLResponse?
            var body = Data()
        }

        let state = LockedState(State())
        let completion: @Sendable (URLSessionTask, Response) -> Void

        init(completion: @escaping @Sendable (URLSessionTask, Response) -> Void) {
            self.completion = completion
        }
    }

    /// URLSession's delegate: refuses redirects, collects answers.
    final class Delegate: NSObject, URLSessionDataDelegate, Sendable {
        let exchanges = LockedState<[Int: Exchange]>([:])

        private func exchange(_ task: URLSessionTask) -> Exchange? {
            exchanges.withLock { $0[task.taskIdentifier] }
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            exchange(task)?.state.withLock { $0.response = response }
            completionHandler(nil)
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
        ) {
            exchange(dataTask)?.state.withLock { $0.response = response as? HTTPURLResponse }
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            exchange(dataTask)?.state.withLock { state in
                let room = CollectorTransport.maxBodyBytes - state.body.count
                if room > 0 { state.body.append(data.prefix(room)) }
            }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            guard let exchange = exchanges.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
            let response = exchange.state.withLock { state in
                let http = state.response ?? (task.response as? HTTPURLResponse)
                return Response(
                    status: http?.statusCode, location: http?.value(forHTTPHeaderField: "Location"),
                    retryAfter: http?.value(forHTTPHeaderField: "Retry-After"), body: state.body,
                    error: error.map { "\($0.localizedDescription)" })
            }
            exchange.completion(task, response)
        }
    }
}
