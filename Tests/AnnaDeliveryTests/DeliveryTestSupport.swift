import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@_spi(DurableQueue) @testable import Anna

/// A fresh directory under the system's temporary directory, deleted by `remove()`.
struct TemporaryDirectory {
    let url: URL

    init(_ name: String = #function) {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("anna-delivery-\(safe)-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }

    /// The segment files, oldest first.
    var segments: [URL] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [])
            .filter { $0.hasSuffix(".seg") }.sorted().map { url.appendingPathComponent($0) }
    }
}

extension DurableQueue {
    /// Appends `count` records "record-<n>" numbered from `first`.
    func appendNumbered(_ range: Range<Int>) {
        for number in range { append(Array("record-\(number)".utf8)) }
    }

    /// Reads everything unacknowledged, as text, without acknowledging it.
    func readAllText() async -> [String] {
        await read(maxRecords: .max, maxBytes: .max).map { String(decoding: $0.payload, as: UTF8.self) }
    }
}

/// A collector written in Python (`collector.py`, `Destinations/vendors.py`) run as a
/// child process on a loopback port: it prints `PORT <n>` when it listens, and
/// answers its own `/control`, `/accepted` and `/bodies` requests.
enum PythonCollector {
    struct StartError: Error { var message: String }

    /// Starts `script` with `port` (0: a free one) and `key`, and returns the port it listens on.
    static func start(_ process: Process, script: URL, port: Int, key: String) throws -> Int {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, String(port), key]
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
            throw StartError(message: "collector did not start: '\(text)'")
        }
        return port
    }

    /// GET (no body) or POST to the collector's own `path`; its answer's body.
    static func request(port: Int, _ path: String, body: Data?) async throws -> Data {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!, timeoutInterval: 30)
        request.httpMethod = body == nil ? "GET" : "POST"
        request.httpBody = body
        return try await withCheckedThrowingContinuation { continuation in
            URLSession.shared.dataTask(with: request) { data, _, error in
                if let data { continuation.resume(returning: data) } else { continuation.resume(throwing: error ?? StartError(message: "no data from \(path)")) }
            }.resume()
        }
    }
}

/// Polls `condition` until it holds or `seconds` pass; for waits across processes
/// and sockets, where no signal reaches the test.
func eventually(within seconds: Double = 20, _ condition: () async -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return await condition()
}

/// A store that forwards every call to `base`, calling `willUse` first: subclasses
/// inject faults or observe, overriding only what they change. Used, like every
/// store, on its queue's writer queue (and `acquireLock` on the opening thread);
/// subclasses keep their own mutable state behind a lock.
class ForwardingStore: SegmentStore, @unchecked Sendable {
    let base: any SegmentStore

    init(base: any SegmentStore) {
        self.base = base
    }

    /// Called before every operation but the lock's, with its name and segment.
    func willUse(_ operation: String, _ id: UInt64?) throws {}

    func acquireLock() throws { try base.acquireLock() }
    func releaseLock() { base.releaseLock() }
    func segmentIDs() throws -> [UInt64] {
        try willUse("segmentIDs", nil)
        return try base.segmentIDs()
    }
    func contents(of id: UInt64) throws -> [UInt8] {
        try willUse("contents", id)
        return try base.contents(of: id)
    }
    func size(of id: UInt64) -> Int? {
        (try? willUse("size", id)).flatMap { base.size(of: id) }
    }
    func create(_ id: UInt64) throws {
        try willUse("create", id)
        try base.create(id)
    }
    func write(_ bytes: UnsafeRawBufferPointer, to id: UInt64, at offset: Int) throws {
        try willUse("write", id)
        try base.write(bytes, to: id, at: offset)
    }
    func sync(_ id: UInt64) throws {
        try willUse("sync", id)
        try base.sync(id)
    }
    func syncDirectory() throws {
        try willUse("syncDirectory", nil)
        try base.syncDirectory()
    }
    func truncate(_ id: UInt64, to size: Int) throws {
        try willUse("truncate", id)
        try base.truncate(id, to: size)
    }
    func read(_ id: UInt64, at offset: Int, count: Int) throws -> [UInt8] {
        try willUse("read", id)
        return try base.read(id, at: offset, count: count)
    }
    func remove(_ id: UInt64) throws {
        try willUse("remove", id)
        try base.remove(id)
    }
    func loadState(_ file: StateFile) -> [UInt8]? {
        (try? willUse("loadState", nil)).flatMap { base.loadState(file) }
    }
    func useFormatFolder(_ version: UInt32) throws -> String? {
        try willUse("useFormatFolder", nil)
        return try base.useFormatFolder(version)
    }
    func removeTemporaryFiles() { base.removeTemporaryFiles() }
    func storeState(_ bytes: [UInt8], as file: StateFile) throws {
        try willUse("storeState", nil)
        try base.storeState(bytes, as: file)
    }
}
