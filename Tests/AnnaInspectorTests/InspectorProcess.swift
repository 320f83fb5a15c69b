import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `anna-inspect`, built beside the test bundle by `swift test`, run as a user runs it:
/// a real process on a free port, its first line parsed for the address.
final class InspectorProcess: @unchecked Sendable {  // fields are set once in init
    let process = Process()
    let address: URL
    let out: URL
    let err: URL

    /// The folder `swift test` built the products into.
    static var productsFolder: URL {
        let test = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? Bundle.main.executablePath ?? CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: test).deletingLastPathComponent()
        while !FileManager.default.isExecutableFile(atPath: directory.appending(path: "anna-inspect").path), directory.path != "/" {
            directory.deleteLastPathComponent()
        }
        return directory
    }

    static var executable: URL { productsFolder.appending(path: "anna-inspect") }

    struct StartError: Error, CustomStringConvertible { var description: String }

    /// Starts `anna-inspect ARGUMENTS --port 0` and waits for its address.
    init(_ arguments: [String], in directory: URL? = nil) throws {
        out = FileManager.default.temporaryDirectory.appending(path: "anna-inspect-\(UUID().uuidString).out")
        err = FileManager.default.temporaryDirectory.appending(path: "anna-inspect-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.executableURL = Self.executable
        process.arguments = arguments + ["--port", "0"]
        if let directory { process.currentDirectoryURL = directory }
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        var found: URL?
        while found == nil, Date() < deadline, process.isRunning {
            let text = (try? String(contentsOf: out, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first, line.hasPrefix("anna-inspect: listening on ") {
                found = URL(string: String(line.dropFirst("anna-inspect: listening on ".count)))
            } else {
                usleep(20_000)
            }
        }
        guard let found else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            throw StartError(description: "anna-inspect did not start: \((try? String(contentsOf: err, encoding: .utf8)) ?? "")")
        }
        address = found
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: out)
        try? FileManager.default.removeItem(at: err)
    }

    struct Exit {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Sends `signal` (or none, to wait for the idle timeout) and waits for the exit, at most `timeout` seconds.
    func stop(_ signal: Int32? = SIGTERM, timeout: Double = 30) async throws -> Exit {
        if let signal, process.isRunning { kill(process.processIdentifier, signal) }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            throw StartError(description: "anna-inspect did not stop within \(timeout) s")
        }
        return Exit(
            status: process.terminationStatus, stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }

    /// A request to the inspector; the status and body.
    func send(
        _ path: String, body: Data, contentType: String? = "application/json", encoding: String? = nil, method: String = "POST",
        writeKey: String? = "test-key"
    ) async throws -> (status: Int, body: String) {
        var request = URLRequest(url: address.appending(path: String(path.dropFirst())))
        request.httpMethod = method
        if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        if let encoding { request.setValue(encoding, forHTTPHeaderField: "Content-Encoding") }
        if let writeKey { request.setValue("Basic " + Data("\(writeKey):".utf8).base64EncodedString(), forHTTPHeaderField: "Authorization") }
        if method != "GET" { request.httpBody = body }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    /// `GET /api/state` as JSON.
    func state() async throws -> [String: Any] {
        let (data, _) = try await URLSession.shared.data(from: address.appending(path: "api/state"))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }
}

/// The forwarding target: forward_collector.py on a free loopback port.
final class ForwardTarget: @unchecked Sendable {  // fields are set once in init
    let process = Process()
    let port: Int

    /// - Parameter stalling: Answer each request only after 30 seconds.
    init(stalling: Bool = false) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(path: "forward_collector.py")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, "0"] + (stalling ? ["stall"] : [])
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) else {
            kill(process.processIdentifier, SIGKILL)
            throw InspectorProcess.StartError(description: "forward_collector.py did not start: '\(text)'")
        }
        self.port = port
    }

    deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

    /// What it received: path, content encoding, authorization, body bytes.
    func received() async throws -> [(path: String, encoding: String?, authorization: String?, body: Data)] {
        let (data, _) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/received")!)
        let rows = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
        return rows.map { row in
            (row["path"] as? String ?? "", row["contentEncoding"] as? String, row["authorization"] as? String,
             Data(base64Encoded: row["body"] as? String ?? "") ?? Data())
        }
    }
}

/// gzip of `data` with the system's gzip, as a client would send it.
func gzipped(_ data: Data) throws -> Data {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["gzip", "-c"]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    input.fileHandleForWriting.write(data)
    try input.fileHandleForWriting.close()
    let result = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return result
}
