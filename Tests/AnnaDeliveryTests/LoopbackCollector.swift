import Foundation

/// The Python collector (`collector.py` beside this file) as a child process on a
/// free loopback port, or a given one.
final class LoopbackCollector: @unchecked Sendable {
    let process = Process()
    let port: Int
    var endpoint: URL { URL(string: "http://127.0.0.1:\(port)/v1/batch")! }

    /// What the collector accepted, in arrival order.
    struct Accepted {
        var events: [(messageID: String, name: String, number: Int?)]
        var requests: Int
        var statuses: [String: Int]
        var maxConcurrent: Int
        var invalid: [Any]
        var last: [String: Any]?
        /// Each batch body as it arrived: the collector's wall-clock time and its message ids.
        var arrivals: [(time: Double, messageIDs: [String])]
        /// Every request to a path other than the batch endpoint.
        var hits: [(method: String, path: String, hasAuthorization: Bool, bodyBytes: Int)]
        /// Every batch request: its `Content-Encoding`, its body's bytes as sent and as JSON, its events.
        var wire: [(encoding: String?, wireBytes: Int, jsonBytes: Int, events: Int)]
    }

    init(port: Int = 0) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("collector.py")
        self.port = try PythonCollector.start(process, script: script, port: port, key: "test-key")
    }

    /// SIGKILL: a child of a dispatch thread inherits its blocked SIGTERM.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

    /// Sets the script: actions for the next requests, the default, a 413 threshold.
    func control(_ command: [String: Any]) async throws {
        _ = try await request("/control", body: try JSONSerialization.data(withJSONObject: command))
    }

    func accepted() async throws -> Accepted {
        let data = try await request("/accepted", body: nil)
        let json = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        let events = (json["events"] as? [[Any]] ?? []).map { row in
            (row[0] as? String ?? "", row[1] as? String ?? "", row[2] as? Int)
        }
        let arrivals = (json["arrivals"] as? [[Any]] ?? []).map { row in
            ((row.first as? NSNumber)?.doubleValue ?? 0, row.count > 1 ? row[1] as? [String] ?? [] : [])
        }
        let hits = (json["hits"] as? [[Any]] ?? []).map { row in
            (row[0] as? String ?? "", row[1] as? String ?? "", row[2] as? Bool ?? false, row[3] as? Int ?? 0)
        }
        let wire = (json["wire"] as? [[Any]] ?? []).map { row in
            (row[0] as? String, row[1] as? Int ?? 0, row[2] as? Int ?? 0, row[3] as? Int ?? 0)
        }
        return Accepted(
            events: events, requests: json["requests"] as? Int ?? 0, statuses: json["statuses"] as? [String: Int] ?? [:],
            maxConcurrent: json["maxConcurrent"] as? Int ?? 0, invalid: json["invalid"] as? [Any] ?? [],
            last: json["last"] as? [String: Any], arrivals: arrivals, hits: hits, wire: wire)
    }

    /// Every batch request body as it arrived, answered or not.
    func bodies() async throws -> [String] {
        let data = try await request("/bodies", body: nil)
        return try JSONSerialization.jsonObject(with: data) as? [String] ?? []
    }

    private func request(_ path: String, body: Data?) async throws -> Data {
        try await PythonCollector.request(port: port, path, body: body)
    }
}
