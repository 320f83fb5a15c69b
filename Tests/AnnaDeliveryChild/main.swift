// The process the delivery tests start, kill with SIGKILL, and start again.
//
//   AnnaDeliveryChild report <directory> <endpoint> <first number>
//       reports numbered events until killed; prints "persisted <n>" whenever the
//       first n events it reported are written and synced (accepted).
//   AnnaDeliveryChild report-orders <directory> <endpoint> <first number>
//       the same with numbered orders of three products (objects, PII inside).
//   AnnaDeliveryChild drain <directory> <endpoint>
//       delivers what earlier processes left, prints "draining …" every ten seconds and
//       "drained …" at the end, and exits; fails on a minute without a delivery.
//   AnnaDeliveryChild fill <directory> <file size limit>
//       appends records under RLIMIT_FSIZE (a disk that fills up), prints the metrics.
//   AnnaDeliveryChild shared <folder> <endpoint> <first> <count>
//       on a shared folder (an App Group's), reports events first..<first+count through
//       the service (count 0: until killed), printing "persisted <n>"; then flushes
//       every 50 ms and prints "metrics delivered … adopted … backlog … recovered …"
//       whenever they change, until killed.
//   AnnaDeliveryChild calls <directory> <endpoint>
//       receives 40 envelopes of every kind, prints each as "envelope <JSON, base64>",
//       prints "persisted 40" once they are accepted, then runs until killed.
//   AnnaDeliveryChild suspend <folder> <endpoint> <first>
//       on a shared folder: receives 100 events, makes an upload attempt, suspends
//       (prints "suspended"), receives 50 more, waits for the file <folder>/resume,
//       resumes, delivers everything and prints "resumed delivered … adopted …".
//   AnnaDeliveryChild app <folder> <endpoint> <step> [<step> …]
//       an app's launch: a service with its identity in <folder> (identity.json) and an
//       DurableProvider on the shared folder <folder>/events, running the steps in
//       order (report:<name>, identify:<user id>, revoke:<category>, grant:<category>,
//       reset, optout, optin, flush), then shutting down and printing
//       "identity <anonymous id> <user id or -> <granted, comma-separated>" and
//       "dropped consent <n> optout <n>".
//   AnnaDeliveryChild identity-writes <folder> <rounds>
//       a service with its identity in <folder> changing it until killed: identify and
//       setConsent in a loop, each written to identity.json, flushing every <rounds>
//       rounds; prints "writing" once the first changes are on disk.
//   AnnaDeliveryChild extension <folder> <endpoint> <first> <rounds> <per round>
//       an app extension on the shared folder (lock policy .aroundIO, no upload of its
//       own until it shuts down): each round reports <per round> numbered events, waits
//       until they are accepted, prints "accepted <n>" and idles 300 ms; then shuts
//       down (a last upload attempt) and prints "done persisted … delivered … dropped …".
//   AnnaDeliveryChild vendor-report <amplitude|mixpanel|posthog> <directory> <collector base URL> <first>
//       the same as report, through AnnaDestinations' provider for that vendor, sending to
//       the vendor's endpoint on the loopback collector (Tests/AnnaDeliveryTests/Destinations/vendors.py).
//   AnnaDeliveryChild vendor-drain <amplitude|mixpanel|posthog> <directory> <collector base URL>
//       delivers what earlier processes left through that vendor's provider, prints
//       "drained …" and exits.
@_spi(DurableQueue) import Anna
import AnnaDestinations
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

func provider(
    _ directory: String, _ endpoint: String, shared: Bool = false, extensionMode: Bool = false
) -> DurableProvider {
    let folder = URL(fileURLWithPath: directory)
    do {
        return try DurableProvider(
            endpoint: URL(string: endpoint)!, writeKey: "test-key",
            storage: shared ? .shared(folder) : .directory(folder),
            configuration: .init(
                // An extension leaves uploading to the app until it shuts down.
                flushAt: extensionMode ? 1_000_000 : 100,
                flushInterval: extensionMode ? .seconds(3600) : .milliseconds(100),
                initialRetryDelay: .milliseconds(20),
                maxRetryDelay: .milliseconds(200), requestTimeout: .seconds(5),
                // Above any backlog the tests build: a capacity drop would be a counted
                // loss, and this test is about losing nothing.
                queue: .init(maxBytes: 1 << 30, lockPolicy: extensionMode ? .aroundIO : .whileRunning)))
    } catch {
        fail("\(error)")
    }
}

func numbered(_ number: Int) -> AnalyticsEvent {
    AnalyticsEvent(name: "Numbered", parameters: ["n": .int(number)])
}

/// A numbered order with three products, the second with a PII property inside.
func order(_ number: Int) -> AnalyticsEvent {
    let products: [AnalyticsValue] = (1...3).map { index in
        var fields: [String: AnalyticsValue] = ["productID": .string("SKU-\(index)"), "price": .double(Double(index)), "quantity": 1]
        if index == 2 { fields["giftEmail"] = "jane@example.com" }
        return .object(fields)
    }
    return AnalyticsEvent(
        name: "Order Completed", parameters: ["n": .int(number), "products": .array(products)],
        metadata: .init(piiKeys: ["products/giftEmail"]))
}

func envelope(_ event: AnalyticsEvent, kind: AnalyticsEnvelope.Kind = .track, number: Int) -> AnalyticsEnvelope {
    AnalyticsEnvelope(
        event: event, messageID: UUID(), timestamp: Date(), sessionID: 1_763_895_600_000, anonymousID: "anon-\(number)",
        userID: kind == .track ? nil : "user-\(number)", context: AnalyticsContext(os: .init(name: "Linux", version: "6")),
        kind: kind, groupID: kind == .group ? "group-\(number)" : nil, previousID: kind == .alias ? "old-\(number)" : nil)
}

/// Prints the provider's metrics whenever they change, flushing every 50 ms, forever.
func flushForever(_ analytics: AnalyticsService, _ http: DurableProvider) async -> Never {
    var printed = ""
    while true {
        await analytics.flush()
        let metrics = http.metrics
        let line = "metrics delivered \(metrics.delivered) adopted \(metrics.adopted) backlog \(metrics.backlog) recovered \(metrics.recovered)"
        if line != printed {
            say(line)
            printed = line
        }
        try? await Task.sleep(for: .milliseconds(50))
    }
}

/// A destination provider for `vendor`, sending to its endpoint on the collector at `base`.
func vendorProvider(_ vendor: String, _ directory: String, _ base: String) -> any DurableMetrics {
    let storage = DeliveryStorage.directory(URL(fileURLWithPath: directory))
    let configuration = DurableProvider.Configuration(
        flushAt: 100, flushInterval: .milliseconds(100), initialRetryDelay: .milliseconds(20),
        maxRetryDelay: .milliseconds(200), maxRetryAfter: .milliseconds(200), requestTimeout: .seconds(5),
        queue: .init(maxBytes: 1 << 30))
    guard let url = URL(string: base) else { fail("bad URL \(base)") }
    do {
        let collector: DurableProvider.Collector
        switch vendor {
        case "amplitude": collector = .amplitude(apiKey: "test-key", region: .custom(url))
        case "mixpanel": collector = .mixpanel(token: "test-key", region: .custom(url))
        case "posthog": collector = .posthog(projectAPIKey: "test-key", host: .selfHosted(url))
        default: fail("unknown vendor \(vendor)")
        }
        return try DurableProvider(collector: collector, storage: storage, configuration: configuration)
    } catch {
        fail("\(error)")
    }
}

/// What every durable provider counts: `DurableProvider` and the destinations.
protocol DurableMetrics: AnalyticsProvider {
    var metrics: DurableProvider.Metrics { get }
}

extension DurableProvider: DurableMetrics {}

/// Reports `make(n)` from `first` on, three a millisecond (or as fast as the pipeline
/// takes them, if slower), and prints each new count of persisted events, until the test
/// kills the process.
///
/// `reportWaitingForRoom`, not `report`: the test takes "persisted N" to mean events
/// `first..<first + N`, which holds only if the intake drops none. A pipeline slower than
/// 3,000 events/s (under the thread sanitizer) made `report` drop some for memory, counted
/// as overflow and never accepted, and the numbers after them were then taken for lost.
func reportUntilKilled(to provider: any DurableMetrics, from first: Int, _ make: @escaping @Sendable (Int) -> AnalyticsEvent) -> Never {
    let analytics = AnalyticsService(providers: [provider])
    Task.detached {
        let start = ContinuousClock.now
        var number = first
        while true {
            // Three a millisecond since the start, however long each sleep lasts, and at
            // most 30 at once after a stall: a faster child builds a backlog the last
            // process cannot drain in its two minutes on a loaded machine.
            let due = first + 3 * Int((ContinuousClock.now - start) / .milliseconds(1))
            for _ in 0..<max(0, min(due - number, 30)) {
                await analytics.reportWaitingForRoom(make(number))
                number += 1
            }
            try? await Task.sleep(for: .milliseconds(1))
        }
    }
    var printed = 0
    while true {
        let persisted = provider.metrics.persisted
        if persisted != printed {
            say("persisted \(persisted)")
            printed = persisted
        }
        usleep(2000)
    }
}

/// Flushes until nothing waits, prints "drained …" with what was delivered and exits.
/// Prints "draining …" every ten seconds while it works. Fails when a minute passes
/// without a delivery while a backlog waits (stuck), or after nine minutes in all: a
/// loaded machine delivers the kill tests' 400,000 events in well over the two minutes
/// it takes alone, and the test should fail on a stall, not on a busy CI runner.
func drainAndExit(_ provider: any DurableMetrics) async -> Never {
    let analytics = AnalyticsService(providers: [provider])
    let start = Date()
    var lastDelivered = -1
    var lastProgress = start
    var lastPrinted = start
    while Date().timeIntervalSince(start) < 540, Date().timeIntervalSince(lastProgress) < 60 {
        await analytics.flush()
        let metrics = provider.metrics
        if metrics.backlog == 0 {
            let dropped = metrics.dropped.values.reduce(0, +)
            say("drained delivered \(metrics.delivered) recovered \(metrics.recovered) skipped \(metrics.skippedBytes) dropped \(dropped)")
            await analytics.shutdown()
            exit(0)
        }
        if metrics.delivered != lastDelivered {
            lastDelivered = metrics.delivered
            lastProgress = Date()
        }
        if Date().timeIntervalSince(lastPrinted) >= 10 {
            say("draining delivered \(metrics.delivered) backlog \(metrics.backlog)")
            lastPrinted = Date()
        }
        try? await Task.sleep(for: .milliseconds(50))
    }
    fail("not drained after \(Int(Date().timeIntervalSince(start))) s: \(provider.metrics)")
}

guard arguments.count >= 4 else { fail("usage: AnnaDeliveryChild report|drain|fill|shared|calls|suspend …") }

switch arguments[1] {
case "vendor-report":
    guard arguments.count == 6, let first = Int(arguments[5]) else { fail("vendor-report <vendor> <directory> <base> <first>") }
    reportUntilKilled(to: vendorProvider(arguments[2], arguments[3], arguments[4]), from: first, numbered)

case "vendor-drain":
    await drainAndExit(vendorProvider(arguments[2], arguments[3], arguments[4]))

case "report", "report-orders":
    guard arguments.count == 5, let first = Int(arguments[4]) else { fail("report <directory> <endpoint> <first>") }
    reportUntilKilled(to: provider(arguments[2], arguments[3]), from: first, arguments[1] == "report" ? numbered : order)

case "drain":
    await drainAndExit(provider(arguments[2], arguments[3]))

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
    say("persisted \(metrics.persisted) failed \(metrics.dropped[.writeFailed, default: 0]) errors \(errors.count) \(errors.first)")

case "app":
    guard arguments.count >= 4 else { fail("app <folder> <endpoint> <step>…") }
    let folder = URL(fileURLWithPath: arguments[2])
    let http = provider(folder.appendingPathComponent("events").path, arguments[3], shared: true)
    let analytics = AnalyticsService(providers: [http], configuration: .init(
        errorHandler: { say("error \($0)") }, storageDirectory: folder))
    for step in arguments[4...] {
        let parts = step.split(separator: ":", maxSplits: 1).map(String.init)
        let argument = parts.count > 1 ? parts[1] : ""
        switch parts[0] {
        case "report": analytics.report(AnalyticsEvent(name: argument))
        case "identify": analytics.identify(userID: argument)
        case "revoke": analytics.revoke(ConsentCategory(rawValue: argument))
        case "grant": analytics.grant(ConsentCategory(rawValue: argument))
        case "reset": analytics.reset()
        case "optout": await analytics.optOut()
        case "optin": analytics.optIn()
        case "flush": await analytics.flush()
        default: fail("unknown step \(step)")
        }
    }
    await analytics.flush()
    let identity = await analytics.identity
    await analytics.shutdown()
    let granted = identity.grantedConsent.map { $0.rawValue }.sorted().joined(separator: ",")
    say("identity \(identity.anonymousID) \(identity.userID ?? "-") \(granted)")
    let metrics = analytics.metrics
    say("dropped consent \(metrics.dropped[.consent, default: 0]) optout \(metrics.dropped[.optOut, default: 0])")

case "shared":
    guard arguments.count == 6, let first = Int(arguments[4]), let count = Int(arguments[5]) else {
        fail("shared <folder> <endpoint> <first> <count>")
    }
    let http = provider(arguments[2], arguments[3], shared: true)
    let analytics = AnalyticsService(providers: [http])
    let printer = Thread {
        var printed = 0
        while true {
            let persisted = http.metrics.persisted
            if persisted != printed {
                say("persisted \(persisted)")
                printed = persisted
            }
            usleep(2000)
        }
    }
    printer.start()
    var number = first
    while count == 0 || number < first + count {
        analytics.report(numbered(number))
        number += 1
        if number % 3 == 0 { usleep(1000) }
    }
    await flushForever(analytics, http)

case "identity-writes":
    guard arguments.count == 4, let rounds = Int(arguments[3]), rounds > 0 else { fail("identity-writes <folder> <rounds>") }
    let analytics = AnalyticsService(providers: [], configuration: .init(
        errorHandler: { say("error \($0)") }, storageDirectory: URL(fileURLWithPath: arguments[2])))
    var round = 0
    while true {
        analytics.identify(userID: "user\(round)")
        analytics.setConsent(round % 2 == 0 ? [.necessary, .analytics] : [.necessary])
        round += 1
        // Now and then, so the persister's queue does not grow without bound.
        if round % rounds == 0 {
            await analytics.flush()
            if round == rounds { say("writing") }
        }
    }

case "calls":
    let http = provider(arguments[2], arguments[3])
    let kinds = AnalyticsEnvelope.Kind.allCases
    let sent = (0..<40).map { number in
        let kind = kinds[number % kinds.count]
        let event = AnalyticsEvent(
            name: kind == .screen ? "Screen \(number)" : kind == .track ? "Numbered" : "",
            // One parameter: a dictionary's order differs between processes, and the
            // test encodes these again to compare bytes.
            parameters: kind == .alias ? [:] : ["n": .int(number)])
        return envelope(event, kind: kind, number: number)
    }
    let encoder = JSONEncoder()
    for envelope in sent {
        guard let json = try? encoder.encode(envelope) else { fail("cannot encode \(envelope)") }
        say("envelope \(json.base64EncodedString())")
    }
    try? await http.receive(sent)
    await http.waitUntilPersisted()
    say("persisted \(http.metrics.persisted)")
    while true { usleep(100_000) }

case "suspend":
    guard arguments.count == 5, let first = Int(arguments[4]) else { fail("suspend <folder> <endpoint> <first>") }
    let http = provider(arguments[2], arguments[3], shared: true)
    let analytics = AnalyticsService(providers: [http])
    try? await http.receive((first..<first + 100).map { envelope(numbered($0), number: $0) })
    try? await http.flush()
    say("persisted \(http.metrics.persisted)")
    await http.suspend()
    say("suspended")
    try? await http.receive((first + 100..<first + 150).map { envelope(numbered($0), number: $0) })
    let resume = URL(fileURLWithPath: arguments[2]).appendingPathComponent("resume").path
    while !FileManager.default.fileExists(atPath: resume) { usleep(10_000) }
    await http.resume()
    while http.metrics.backlog > 0 || http.metrics.persisted < 150 {
        try? await http.flush()
        usleep(20_000)
    }
    say("resumed delivered \(http.metrics.delivered) adopted \(http.metrics.adopted) backlog \(http.metrics.backlog)")
    await flushForever(analytics, http)

case "extension":
    guard arguments.count == 7, let first = Int(arguments[4]), let rounds = Int(arguments[5]),
        let perRound = Int(arguments[6])
    else { fail("extension <folder> <endpoint> <first> <rounds> <per round>") }
    let http = provider(arguments[2], arguments[3], shared: true, extensionMode: true)
    let analytics = AnalyticsService(providers: [http])
    var number = first
    for round in 1...rounds {
        for _ in 0..<perRound {
            analytics.report(numbered(number))
            number += 1
        }
        while http.metrics.persisted < round * perRound { usleep(1_000) }
        say("accepted \(http.metrics.persisted)")
        usleep(300_000)
    }
    await analytics.shutdown()
    let metrics = http.metrics
    say("done persisted \(metrics.persisted) delivered \(metrics.delivered) dropped \(metrics.dropped.values.reduce(0, +))")

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
