import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
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

    /// Runs `executable ARGUMENTS` to its end: a process that must not start serving.
    static func run(_ arguments: [String], executable: URL = InspectorProcess.executable) throws -> Exit {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let err = Pipe()
        process.standardError = err
        process.standardOutput = Pipe()
        try process.run()
        let data = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return .init(status: process.terminationStatus, stdout: "", stderr: String(decoding: data, as: UTF8.self))
    }

    /// The first line of standard error that holds `text`, once the process wrote it.
    func standardErrorLine(containing text: String) async throws -> String? {
        for _ in 0..<200 {
            let all = (try? String(contentsOf: err, encoding: .utf8)) ?? ""
            if let line = all.split(separator: "\n").first(where: { $0.contains(text) }) { return String(line) }
            try await Task.sleep(for: .milliseconds(25))
        }
        return nil
    }

    /// One request written by hand on a new connection, headers as given (`Host`
    /// included, which URLSession would set itself); the whole answer, head and body.
    func raw(_ method: String, _ target: String, headers: [String: String], body: String = "") throws -> RawAnswer {
        let port = UInt16(address.port ?? 0)
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw StartError(description: "no socket") }
        defer { close(socket) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var peer = sockaddr_in()
        peer.sin_family = sa_family_t(AF_INET)
        peer.sin_port = port.bigEndian
        peer.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &peer) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard connected == 0 else { throw StartError(description: "cannot connect to port \(port)") }
        var text = "\(method) \(target) HTTP/1.1\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
        text += "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        let bytes = Array(text.utf8)
        guard write(socket, bytes, bytes.count) == bytes.count else { throw StartError(description: "cannot write the request") }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(socket, &buffer, buffer.count)
            if count <= 0 { break }
            answer += buffer[0..<count]
        }
        return RawAnswer(String(decoding: answer, as: UTF8.self))
    }

    /// `GET /api/state` as JSON.
    func state() async throws -> [String: Any] {
        let (data, _) = try await URLSession.shared.data(from: address.appending(path: "api/state"))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }
}

/// An HTTP answer read off the socket.
struct RawAnswer {
    var status: Int
    /// Header names lowercased.
    var headers: [String: String]
    var body: String

    init(_ text: String) {
        let parts = text.components(separatedBy: "\r\n\r\n")
        let lines = (parts.first ?? "").components(separatedBy: "\r\n")
        status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        self.headers = headers
        body = parts.dropFirst().joined(separator: "\r\n\r\n")
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
