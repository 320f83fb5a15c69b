import Foundation
import _AnnaGeneratorCore

/// The inspector without its server: takes a request to a collector endpoint,
/// answers as Segment does, checks every call in it and records what it found.
/// The server (`anna-inspect`) only moves bytes and calls ``ingest(_:)``.
///
/// Thread-safe: the log sits behind one lock, held only to record a checked call;
/// checking runs outside it.
package final class Inspector: @unchecked Sendable {  // `state` is guarded by `lock`.
    package let checker: CallChecker
    package let limits: InspectorLimits
    private let lock = NSLock()
    private var state: InspectionLog
    private var observers: [Int: @Sendable ([CallRecord]) -> Void] = [:]
    private var nextObserver = 0
    /// The clock: seconds since 1970; tests set a fixed one.
    private let now: @Sendable () -> Double

    package convenience init(plan: InspectionPlan, limits: InspectorLimits = InspectorLimits(), now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        self.init(versions: PlanVersions(plan: plan), limits: limits, now: now)
    }

    /// An inspector that checks each call against the plan version it names.
    package init(versions: PlanVersions, limits: InspectorLimits = InspectorLimits(), now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        self.checker = CallChecker(versions: versions)
        self.limits = limits
        self.state = InspectionLog(limits: limits)
        self.now = now
    }

    /// A request to a collector endpoint.
    package struct Request: Sendable {
        package var method: String
        /// The path, without the query.
        package var path: String
        package var contentType: String?
        package var contentEncoding: String?
        package var body: [UInt8]

        package init(method: String, path: String, contentType: String?, contentEncoding: String?, body: [UInt8]) {
            self.method = method
            self.path = path
            self.contentType = contentType
            self.contentEncoding = contentEncoding
            self.body = body
        }
    }

    /// The answer: Segment's `{"success":true}`, or a 4xx with what was wrong.
    package struct Response: Sendable, Hashable {
        package var status: Int
        package var body: String
        /// Whether the request was accepted (and is forwarded).
        package var accepted: Bool { status == 200 }
    }

    /// Batch endpoints: Segment's and the short one its mobile libraries use.
    package static let batchPaths: Set<String> = ["/v1/batch", "/v1/import", "/v1/b"]
    /// Single-call endpoints and the call type each implies, with analytics.js' short forms.
    package static let callPaths: [String: String] = [
        "/v1/track": "track", "/v1/screen": "screen", "/v1/identify": "identify", "/v1/group": "group", "/v1/alias": "alias",
        "/v1/page": "page", "/v1/t": "track", "/v1/s": "screen", "/v1/i": "identify", "/v1/g": "group", "/v1/a": "alias", "/v1/p": "page",
    ]

    /// Whether a path is one the collector takes calls at.
    package static func isCollectorPath(_ path: String) -> Bool { batchPaths.contains(path) || callPaths[path] != nil }

    /// Handles one request to a collector endpoint: checks its calls and records them.
    package func ingest(_ request: Request) -> Response {
        lock.withLock { state.countRequest() }
        let implied = Self.callPaths[request.path]
        guard implied != nil || Self.batchPaths.contains(request.path) else {
            return reject(request, status: 404, "no endpoint \(request.path); use /v1/batch or /v1/track, /v1/screen, /v1/identify, /v1/group, /v1/alias, /v1/page")
        }
        guard request.method == "POST" else {
            return reject(request, status: 405, "use POST for \(request.path)")
        }
        let mediaType = (request.contentType ?? "").split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        guard mediaType == "application/json" || mediaType == "text/plain" else {
            let got = request.contentType.map { "'\($0)'" } ?? "none"
            return reject(request, status: 415, "send JSON with Content-Type: application/json (got \(got))")
        }
        guard request.body.count <= limits.maximumBody else {
            return reject(request, status: 413, "the body is \(request.body.count) bytes; the limit is \(limits.maximumBody) (--max-body)")
        }
        var body = request.body
        switch (request.contentEncoding ?? "identity").trimmingCharacters(in: .whitespaces).lowercased() {
        case "identity", "":
            break
        case "gzip":
            switch GzipInflater.inflate(request.body, limit: limits.maximumBody) {
            case .success(let inflated): body = inflated
            case .failure(.tooLarge):
                return reject(request, status: 413, "the gzip body inflates past the limit of \(limits.maximumBody) bytes (--max-body)")
            case .failure(.corrupt(let reason)):
                return reject(request, status: 400, "the body is not valid gzip: \(reason)")
            }
        case let other:
            return reject(request, status: 415, "Content-Encoding '\(other)' is not supported; send gzip or no encoding")
        }
        let json: JSONValue
        let elements: [Range<Int>]
        do {
            (json, elements) = try JSONParser.parse(body, recordingElementsOf: "batch")
        } catch {
            return reject(request, status: 400, "the body is not JSON: \(error)", body: body)
        }
        let calls: [JSONValue]
        let ranges: [Range<Int>]
        if implied != nil {
            calls = [json]
            ranges = [0..<body.count]
        } else {
            guard case .array(let batch) = json["batch"] ?? .null, batch.count == elements.count else {
                return reject(request, status: 400, "a batch is an object with a \"batch\" array of calls", body: body)
            }
            calls = batch
            ranges = elements
        }
        var checked: [(CallChecker.Result, String)] = []
        checked.reserveCapacity(calls.count)
        for (call, range) in zip(calls, ranges) {
            // The call's text as sent, cut at the limit, for the page.
            let text = body[range.lowerBound..<min(range.upperBound, range.lowerBound + limits.maximumCallText + 1)]
            checked.append((checker.check(call, type: implied, size: range.count), String(decoding: text, as: UTF8.self)))
        }
        let time = now()
        let (records, observers) = lock.withLock { () -> ([CallRecord], [@Sendable ([CallRecord]) -> Void]) in
            let records = checked.map { result, text in
                state.record(
                    time: time, endpoint: request.path, type: result.type, name: result.name, findings: result.findings, json: text,
                    declared: result.declared, version: result.version)
            }
            return (records, Array(self.observers.values))
        }
        for observer in observers { observer(records) }
        return Response(status: 200, body: #"{"success":true}"#)
    }

    /// Refuses a request: records it (counted and shown on the page) and returns the
    /// 4xx answer with the message.
    package func refuse(_ request: Request, status: Int, _ message: String) -> Response {
        lock.withLock { state.countRequest() }
        return reject(request, status: status, message)
    }

    private func reject(_ request: Request, status: Int, _ message: String, body: [UInt8]? = nil) -> Response {
        let shown = body ?? request.body
        let text = String(decoding: shown.prefix(2048), as: UTF8.self)
        let finding = Finding(.error, .request, call: "\(request.method) \(request.path)", path: "", expected: "a request the collector takes", actual: "\(status): \(message)", at: nil)
        let time = now()
        let (record, observers) = lock.withLock {
            (state.record(time: time, endpoint: request.path, type: "request", name: String(status), findings: [finding], json: text, rejected: true), Array(self.observers.values))
        }
        for observer in observers { observer([record]) }
        return Self.refusal(status: status, message)
    }

    /// The answer to a refused request, `{"success":false,"error":"…"}`, not recorded.
    package static func refusal(status: Int, _ message: String) -> Response {
        var out: [UInt8] = []
        out.append(contentsOf: #"{"success":false,"error":"#.utf8)
        JSONValue.writeString(message, into: &out)
        out.append(UInt8(ascii: "}"))
        return Response(status: status, body: String(decoding: out, as: UTF8.self))
    }

    /// Calls `observer` with every call recorded from now on, outside the lock, on the
    /// thread that recorded it.
    /// - Returns: A token for ``removeObserver(_:)``.
    package func addObserver(_ observer: @escaping @Sendable ([CallRecord]) -> Void) -> Int {
        lock.withLock {
            nextObserver += 1
            observers[nextObserver] = observer
            return nextObserver
        }
    }

    package func removeObserver(_ token: Int) {
        _ = lock.withLock { observers.removeValue(forKey: token) }
    }

    /// A copy of the log, for the reports and the page.
    package var log: InspectionLog { lock.withLock { state } }

    /// The kept call with this id.
    package func call(id: Int) -> CallRecord? { lock.withLock { state.call(id: id) } }
}
