import Foundation
import Testing

@testable import Anna

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
