import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A collector of the Segment HTTP Tracking API on 127.0.0.1, in this process: it
/// answers every `POST` with 200 and keeps the calls of each batch, so the example can
/// show what reached the wire. The same `{"batch":[…]}` shape stands in for a
/// self-hosted PostHog's `/batch/`. For a demo, not for production.
final class LoopbackCollector: @unchecked Sendable {
    /// One call as it arrived: its `type`, and its JSON object.
    struct Call: @unchecked Sendable {
        let type: String
        let fields: [String: Any]
    }

    let port: UInt16
    private let socket: Int32
    private let lock = NSLock()
    private var received: [Call] = []

    var calls: [Call] { lock.withLock { received } }
    var endpoint: URL { URL(string: "http://127.0.0.1:\(port)/v1/batch")! }

    init() throws {
        #if canImport(Glibc)
        let server = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let server = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard server >= 0 else { throw CollectorError.socket(errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(server, 16) == 0 else { throw CollectorError.socket(errno) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(server, $0, &length) }
        }
        socket = server
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread { [self] in serve() }
    }

    private func serve() {
        while true {
            let client = accept(socket, nil, nil)
            guard client >= 0 else { return }
            while let body = readRequest(client) {
                keep(body)
                let response = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 15\r\n\r\n{\"success\":true}"
                _ = response.utf8CString.withUnsafeBufferPointer { write(client, $0.baseAddress, $0.count - 1) }
            }
            close(client)
        }
    }

    /// Reads one request on a kept-alive connection; its body, or `nil` at the end.
    private func readRequest(_ client: Int32) -> [UInt8]? {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var headerEnd: Int?
        var bodyLength = 0
        while true {
            if headerEnd == nil, let end = data.firstRange(of: separator)?.upperBound {
                headerEnd = end
                let head = String(decoding: data[..<end], as: UTF8.self).lowercased()
                if let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }) {
                    bodyLength = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
                }
            }
            if let headerEnd, data.count >= headerEnd + bodyLength {
                return Array(data[headerEnd..<(headerEnd + bodyLength)])
            }
            let count = read(client, &buffer, buffer.count)
            guard count > 0 else { return nil }
            data.append(contentsOf: buffer[..<count])
        }
    }

    private func keep(_ body: [UInt8]) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
              let batch = object["batch"] as? [[String: Any]] else { return }
        // Segment's calls have a `type`; PostHog's events only their `event`.
        let calls = batch.map { Call(type: ($0["type"] ?? $0["event"]) as? String ?? "?", fields: $0) }
        lock.withLock { received.append(contentsOf: calls) }
    }

    enum CollectorError: Error {
        case socket(Int32)
    }
}
