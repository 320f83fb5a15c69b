import Foundation
import Testing

@_spi(DurableQueue) @testable import Anna

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An app extension (``DeliveryStorage/LockPolicy/aroundIO``) and its app on one shared
/// folder, played by real processes: the extension is stopped with SIGSTOP at random
/// moments after its events were accepted, as iOS suspends an extension, and must hold
/// no lock then; the app adopts and delivers its events meanwhile; resumed, the
/// extension goes on writing into a queue the app changed under it.
@Suite(.serialized) struct ExtensionProcessTests {
    /// A loopback collector, a shared folder and an app process on it that reports 10
    /// events of its own (5,000,000 on) and flushes (so adopts) every 50 ms; all gone
    /// with the value.
    final class AppScene {
        let collector: LoopbackCollector
        let folder = TemporaryDirectory()
        let endpoint: String
        let app: ChildProcess

        init() throws {
            collector = try LoopbackCollector()
            endpoint = collector.endpoint.absoluteString
            app = try ChildProcess(["shared", folder.url.path, endpoint, "5000000", "10"])
        }

        deinit {
            app.kill()
            folder.remove()
            collector.stop()
        }
    }

    /// The `flock`s process `pid` holds, from `/proc/locks` (Linux).
    static func locks(heldBy pid: Int32) -> [String] {
        let text = (try? String(contentsOfFile: "/proc/locks", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init).filter { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            return fields.count > 4 && fields[1] == "FLOCK" && fields[4] == Substring(String(pid))
        }
    }

    /// Whether the process is stopped (state `T` in `/proc/<pid>/stat`).
    static func isStopped(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return stat[stat.index(close, offsetBy: 2)] == "T"
    }

    /// What the extension holds while stopped: locks and open files of the folder.
    static func held(by process: Process, under folder: URL) -> [String] {
        locks(heldBy: process.processIdentifier) + SharedStorageTests.openFiles(of: process, under: folder)
    }

    /// Stops the process; if it was in the middle of a disk operation (holding that
    /// operation's lock), lets it run 50 ms and stops it again, at most 5 times.
    /// Returns what it held at the last stop and how many stops found it busy.
    static func stopWhenIdle(_ process: Process, folder: URL) async -> (held: [String], busyStops: Int) {
        var busy = 0
        while true {
            kill(process.processIdentifier, SIGSTOP)
            _ = await eventually(within: 5) { isStopped(process.processIdentifier) }
            let held = held(by: process, under: folder)
            if held.isEmpty || busy == 5 { return (held, busy) }
            busy += 1
            kill(process.processIdentifier, SIGCONT)
            try? await Task.sleep(for: .milliseconds(50))
        }
    }

    @Test func aStoppedExtensionHoldsNoLockAndLosesNothing() async throws {
        #if os(Linux)
        let scene = try AppScene()
        defer { withExtendedLifetime(scene) {} }
        let (collector, folder, endpoint, app) = (scene.collector, scene.folder, scene.endpoint, scene.app)
        let rounds = 6
        let perRound = 50
        let widget = try ChildProcess(["extension", folder.url.path, endpoint, "0", "\(rounds)", "\(perRound)"])
        defer {
            kill(widget.process.processIdentifier, SIGCONT)
            widget.kill()
        }
        var busyStops = 0
        for round in 1...rounds {
            let accepted = round * perRound
            #expect(await eventually(within: 60) { widget.lines.contains("accepted \(accepted)") }, "\(widget.lines.suffix(3))")
            // A random moment of the extension's idle time after acceptance.
            try await Task.sleep(for: .milliseconds(Int.random(in: 0..<40)))
            let stop = await Self.stopWhenIdle(widget.process, folder: folder.url)
            busyStops += stop.busyStops
            #expect(stop.held.isEmpty, "a stopped extension holds \(stop.held)")
            // Meanwhile the app adopts the extension's queue and delivers what it accepted.
            let delivered = await eventually(within: 60) {
                Set(0..<accepted).isSubset(of: ((try? await SharedStorageTests.delivered(collector)) ?? [:]).keys)
            }
            #expect(delivered, "round \(round): \(app.lines.suffix(2))")
            kill(widget.process.processIdentifier, SIGCONT)
        }
        #expect(await widget.wait(seconds: 60), "\(widget.lines.suffix(3))")
        let all = Set(0..<rounds * perRound).union(5_000_000..<5_000_010)
        #expect(await eventually(within: 30) {
            all.isSubset(of: ((try? await SharedStorageTests.delivered(collector)) ?? [:]).keys)
        })
        let ids = try await SharedStorageTests.delivered(collector)
        let accepted = try await collector.accepted()
        #expect(Set(ids.keys) == all, "nothing but the reported events")
        #expect(ids.values.allSatisfy { $0.count == 1 }, "a duplicate carries the message id of the original")
        #expect(accepted.maxConcurrent == 1, "one request at a time, the extension's under its lease")
        #expect(accepted.invalid.isEmpty)
        #expect(widget.lines.last?.hasPrefix("done persisted \(rounds * perRound)") == true, "\(widget.lines.suffix(2))")
        print("extension: \(rounds) stops, \(busyStops) found it mid-I/O, \(accepted.events.count) events for \(all.count) reported")
        #endif
    }

    /// An extension killed with SIGKILL at a random moment while it reports: what it
    /// accepted reaches the collector through the app.
    @Test func aKilledExtensionLosesNothingAccepted() async throws {
        let scene = try AppScene()
        defer { withExtendedLifetime(scene) {} }
        let (collector, folder, endpoint, app) = (scene.collector, scene.folder, scene.endpoint, scene.app)
        for trial in 0..<3 {
            let first = trial * 100_000
            let widget = try ChildProcess(["extension", folder.url.path, endpoint, "\(first)", "1000", "20"])
            _ = await eventually(within: 30) { widget.lines.contains { $0.hasPrefix("accepted") } }
            try await Task.sleep(for: .milliseconds(Int.random(in: 0..<400)))
            widget.kill()
            let accepted = widget.lines.compactMap { $0.hasPrefix("accepted ") ? Int($0.dropFirst(9)) : nil }.max() ?? 0
            #expect(accepted > 0)
            let complete = await eventually(within: 60) {
                Set(first..<first + accepted).isSubset(of: ((try? await SharedStorageTests.delivered(collector)) ?? [:]).keys)
            }
            #expect(complete, "trial \(trial): \(accepted) accepted; \(app.lines.suffix(2))")
        }
        let ids = try await SharedStorageTests.delivered(collector)
        #expect(ids.values.allSatisfy { $0.count == 1 }, "a duplicate carries the message id of the original")
        #expect(try await collector.accepted().maxConcurrent == 1)
    }
}
