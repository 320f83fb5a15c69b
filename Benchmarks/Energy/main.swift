import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// One process of the side-by-side energy measurement (scripts/measure-energy.sh):
//   energy-app CLIENT PORT DIRECTORY rate EVENTS_PER_SECOND SECONDS
//   energy-app CLIENT PORT DIRECTORY idle EVENTS SECONDS
// `rate` reports at a steady rate and measures the whole window; `idle` reports,
// flushes, and measures the idle seconds after. Prints one line of JSON with the
// context switches (voluntary and involuntary, every thread: getrusage) and the CPU
// time of the window. CLIENT is `none` (a process without an SDK) or the SDK this
// executable was built with (EnergyClient.swift, copied in by the script).

struct Usage {
    var switches: Int
    var cpuMicroseconds: Int

    /// Every thread of the process, the ones that ended included (Linux: the script's platform).
    static func now() -> Usage {
        var usage = rusage()
        _ = getrusage(RUSAGE_SELF.rawValue, &usage)
        let cpu = (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1_000_000
            + Int(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
        return Usage(switches: usage.ru_nvcsw + usage.ru_nivcsw, cpuMicroseconds: cpu)
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 7, let port = Int(arguments[2]), let rate = Double(arguments[5]), let seconds = Double(arguments[6])
else {
    FileHandle.standardError.write(Data("usage: energy-app CLIENT PORT DIRECTORY rate|idle N SECONDS\n".utf8))
    exit(2)
}
let endpoint = URL(string: "http://127.0.0.1:\(port)/v1/batch")!
let directory = URL(fileURLWithPath: arguments[3])
let client: (any EnergyClient)? = arguments[1] == "none" ? nil : makeClient(endpoint: endpoint, directory: directory)

Task {
    await client?.started()
    var reported = 0
    let before: Usage
    if arguments[4] == "rate" {
        let interval = 1 / rate
        let start = Date()
        before = Usage.now()
        while true {
            let next = start.addingTimeInterval(Double(reported) * interval)
            if next.timeIntervalSince(start) >= seconds { break }
            let wait = next.timeIntervalSinceNow
            if wait > 0 { usleep(useconds_t(wait * 1_000_000)) }
            client?.track(number: reported)
            reported += 1
        }
        let end = start.addingTimeInterval(seconds).timeIntervalSinceNow
        if end > 0 { usleep(useconds_t(end * 1_000_000)) }
    } else {
        for number in 0..<Int(rate) { client?.track(number: number) }
        reported = Int(rate)
        await client?.flush()
        before = Usage.now()
        usleep(useconds_t(seconds * 1_000_000))
    }
    let after = Usage.now()
    // At most 10 s, so an SDK that does not call back ends the run all the same.
    if let client {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await client.flush() }
            group.addTask { try? await Task.sleep(for: .seconds(10)) }
            await group.next()
            group.cancelAll()
        }
    }
    print(#"{"client": "\#(arguments[1])", "phase": "\#(arguments[4]) \#(arguments[5]) \#(arguments[6])", "#
        + #""reported": \#(reported), "switches": \#(after.switches - before.switches), "#
        + #""cpuMs": \#((after.cpuMicroseconds - before.cpuMicroseconds) / 1000)}"#)
    exit(0)
}
// The main queue runs, as in an app: an SDK may schedule work on it (Segment's
// analytics-swift learns it is running through a state subscription delivered
// there, and holds every event in memory until then).
dispatchMain()
