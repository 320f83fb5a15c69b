import Anna
import Foundation
import Testing

/// Real processes reporting through each vendor's provider, killed with SIGKILL at
/// random moments, on one storage directory per vendor: every event a child reported
/// as accepted reaches the vendor's collector, and an event ingested twice carries one
/// dedup id (`insert_id`, `$insert_id`, `uuid`).
/// `ANNA_KILL_TRIALS=200 swift test --filter DestinationKillTests` runs a longer version.
@Suite(.serialized) struct DestinationKillTests {
    @Test(arguments: Vendor.allCases)
    func noAcceptedEventIsLostWhenProcessesAreKilled(_ vendor: Vendor) async throws {
        let trials = Int(ProcessInfo.processInfo.environment["ANNA_KILL_TRIALS"] ?? "") ?? 15
        let collector = try VendorCollector()
        defer { collector.stop() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        var accepted = 0
        var acceptedNumbers: [Range<Int>] = []
        for trial in 0..<trials {
            let first = trial * 1_000_000
            // Every fifth trial the collector answers 503, so a backlog builds up for the
            // next process to recover and send.
            try await collector.control(["default": ["status": trial % 5 == 4 ? 503 : 200]])
            let child = try ChildProcess(["vendor-report", vendor.rawValue, directory.url.path, collector.base.absoluteString, String(first)])
            if trial.isMultiple(of: 2) {
                _ = await eventually(within: 60) { child.lines.contains { $0.hasPrefix("persisted") } }
            }
            try await Task.sleep(for: .milliseconds(Int.random(in: 0...200)))
            child.kill()
            let persisted = child.lines.compactMap { line -> Int? in
                line.hasPrefix("persisted ") ? Int(line.dropFirst(10)) : nil
            }.max() ?? 0
            accepted += persisted
            acceptedNumbers.append(first..<first + persisted)
        }
        try await collector.control(["default": ["status": 200]])
        let drain = try ChildProcess(["vendor-drain", vendor.rawValue, directory.url.path, collector.base.absoluteString])
        // The child fails by itself on a minute without a delivery; 600 s is for a loaded machine.
        #expect(await drain.wait(seconds: 600), "the last process delivers everything: \(drain.lines.suffix(3))")
        #expect(drain.lines.last?.hasPrefix("drained") == true, "\(drain.lines)")
        #expect(drain.lines.last?.hasSuffix(" dropped 0") == true, "\(drain.lines)")

        let delivered = try await collector.accepted()
        var idsByNumber: [Int: Set<String>] = [:]
        for event in delivered.events { idsByNumber[event.number ?? -1, default: []].insert(event.dedupID) }
        let lost = acceptedNumbers.reduce(0) { lost, range in lost + range.count { idsByNumber[$0] == nil } }
        let duplicated = delivered.events.count - idsByNumber.count
        let conflicting = idsByNumber.values.count { $0.count > 1 }
        print("""
            kill test (\(vendor)): \(trials) trials, \(accepted) events accepted, \(idsByNumber.count) distinct delivered, \
            \(lost) lost, \(duplicated) duplicates (\(conflicting) with a different dedup id); \(drain.lines.last ?? "")
            """)
        #expect(accepted > trials * 10, "the children accepted events before they were killed")
        #expect(lost == 0)
        #expect(conflicting == 0)
        #expect(delivered.invalid.isEmpty, "\(delivered.invalid)")
    }
}
