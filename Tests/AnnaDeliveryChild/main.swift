// The process the delivery tests start, kill with SIGKILL, and start again.
//
//   AnnaDeliveryChild report <directory> <endpoint> <first number>
//       reports numbered events until killed; prints "persisted <n>" whenever the
//       first n events it reported are written and synced (accepted).
//   AnnaDeliveryChild drain <directory> <endpoint>
//       delivers what earlier processes left, prints "drained …" and exits.
//   AnnaDeliveryChild fill <directory> <file size limit>
//       appends records under RLIMIT_FSIZE (a disk that fills up), prints the metrics.
@_spi(DurableQueue) import Anna
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let arguments = CommandLine.arguments

/// Writes a line straight to the pipe, unbuffered, so a SIGKILL loses no printed line.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(2)
}

func provider(_ directory: String, _ endpoint: String) -> HTTPBatchProvider {
    do {
        return try HTTPBatchProvider(
            endpoint: URL(string: endpoint)!, writeKey: "test-key",
            storage: .directory(URL(fileURLWithPath: directory)),
            configuration: .init(
                flushAt: 100, flushInterval: .milliseconds(100), initialRetryDelay: .milliseconds(20),
                maxRetryDelay: .milliseconds(200), requestTimeout: .seconds(5),
                // Above any backlog the tests build: a capacity drop would be a counted
                // loss, and this test is about losing nothing.
                queue: .init(maxBytes: 1 << 30)))
    } catch {
        fail("\(error)")
    }
}

func numbered(_ number: Int) -> AnalyticsEvent {
    AnalyticsEvent(name: "Numbered", parameters: ["n": .int(number)])
}

guard arguments.count >= 4 else { fail("usage: AnnaDeliveryChild report|drain|fill …") }

switch arguments[1] {
case "report":
    guard arguments.count == 5, let first = Int(arguments[4]) else { fail("report <directory> <endpoint> <first>") }
    let http = provider(arguments[2], arguments[3])
    let analytics = AnalyticsService(providers: [http])
    let reporter = Thread {
        var number = first
        while true {
            for _ in 0..<3 {
                analytics.report(numbered(number))
                number += 1
            }
            usleep(1000)
        }
    }
    reporter.start()
    var printed = 0
    while true {
        let persisted = http.metrics.persisted
        if persisted != printed {
            say("persisted \(persisted)")
            printed = persisted
        }
        usleep(2000)
    }

case "drain":
    let http = provider(arguments[2], arguments[3])
    let analytics = AnalyticsService(providers: [http])
    let deadline = Date().addingTimeInterval(120)
    while Date() < deadline {
        await analytics.flush()
        let metrics = http.metrics
        if metrics.backlog == 0 {
            let dropped = metrics.dropped.values.reduce(0, +)
            say("drained delivered \(metrics.delivered) recovered \(metrics.recovered) skipped \(metrics.skippedBytes) dropped \(dropped)")
            await analytics.shutdown()
            exit(0)
        }
        try? await Task.sleep(for: .milliseconds(50))
    }
    fail("not drained: \(http.metrics)")

case "fill":
    guard let limit = Int(arguments[3]) else { fail("fill <directory> <bytes>") }
    // Past the limit, write(2) fails with EFBIG instead of the process being killed.
    signal(SIGXFSZ, SIG_IGN)
    var rlimit = rlimit(rlim_cur: rlim_t(limit), rlim_max: rlim_t(limit))
    #if canImport(Glibc)
    let resource = __rlimit_resource_t(RLIMIT_FSIZE.rawValue)
    #else
    let resource = RLIMIT_FSIZE
    #endif
    guard setrlimit(resource, &rlimit) == 0 else { fail("setrlimit failed") }
    let errors = LockedBox()
    let queue: DurableQueue
    do {
        queue = try DurableQueue(
            storage: .directory(URL(fileURLWithPath: arguments[2])),
            configuration: .init(segmentSize: 1 << 20),
            errorHandler: { error in errors.add("\(error)") })
    } catch {
        fail("\(error)")
    }
    for batch in 0..<40 {
        for number in batch * 100..<(batch + 1) * 100 { queue.append(Array("record-\(number)".utf8)) }
        await queue.waitUntilPersisted()
    }
    let metrics = queue.metrics
    say("persisted \(metrics.persisted) failed \(metrics.dropped(.writeFailed)) errors \(errors.count) \(errors.first)")

default:
    fail("unknown mode \(arguments[1])")
}

/// Counts errors from the queue's writer thread.
final class LockedBox: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [String] = []
    func add(_ message: String) { lock.withLock { messages.append(message) } }
    var count: Int { lock.withLock { messages.count } }
    var first: String { lock.withLock { messages.first ?? "" } }
}
