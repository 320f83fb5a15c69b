import Foundation

/// `vendors.py` beside this file as a child process on a free loopback port: Amplitude's,
/// Mixpanel's and PostHog's ingestion endpoints, each with its documented contract.
final class VendorCollector: @unchecked Sendable {
    let process = Process()
    let port: Int
    static let key = "test-key"

    /// The collector's base URL: Amplitude's `/2/httpapi` and `/batch`, Mixpanel's
    /// `/track` and PostHog's `/batch/` are under it.
    var base: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// What the collector ingested, in arrival order.
    struct Accepted {
        var events: [(vendor: String, dedupID: String, name: String, number: Int?)]
        var requests: Int
        var statuses: [String: Int]
        var invalid: [Any]
        /// Every request: its path, `Content-Encoding`, bytes as sent and as JSON, events.
        var wire: [(path: String, encoding: String?, wireBytes: Int, jsonBytes: Int, events: Int)]
    }

    init(port: Int = 0) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("vendors.py")
        self.port = try PythonCollector.start(process, script: script, port: port, key: Self.key)
    }

    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

    /// Sets the script, the default action, a 413 threshold or the numbers refused.
    func control(_ command: [String: Any]) async throws {
        _ = try await request("/control", body: try JSONSerialization.data(withJSONObject: command))
    }

    func accepted() async throws -> Accepted {
        let data = try await request("/accepted", body: nil)
        let json = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        let events = (json["events"] as? [[Any]] ?? []).map { row in
            (row[0] as? String ?? "", row[1] as? String ?? "", row[2] as? String ?? "", row[3] as? Int)
        }
        let wire = (json["wire"] as? [[Any]] ?? []).map { row in
            (row[0] as? String ?? "", row[1] as? String, row[2] as? Int ?? 0, row[3] as? Int ?? 0, row[4] as? Int ?? 0)
        }
        return Accepted(
            events: events, requests: json["requests"] as? Int ?? 0, statuses: json["statuses"] as? [String: Int] ?? [:],
            invalid: json["invalid"] as? [Any] ?? [], wire: wire)
    }

    /// Every request body as it arrived (decompressed), parsed.
    func bodies() async throws -> [Any] {
        let data = try await request("/bodies", body: nil)
        let texts = try JSONSerialization.jsonObject(with: data) as? [String] ?? []
        return texts.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) }
    }

    private func request(_ path: String, body: Data?) async throws -> Data {
        try await PythonCollector.request(port: port, path, body: body)
    }
}
