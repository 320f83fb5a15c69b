@_spi(Generated) import Anna
@_spi(Generated) import AnnaFocusPaths
import AnnaLiveTasks
import Benchmark
import Crypto
import Foundation

// Tasks built at run time against compiled ones (the target: within 2x), and loading
// a signed bundle of 1,000 tasks.

/// A catalog of one event, `itemSelected(row:)`, and 999 others, as generated code writes it.
let benchmarkCatalog: EventCatalog = {
    var events = [EventDescriptor(name: "itemSelected", parameters: [ParameterDescriptor(name: "row", type: Int.self, kind: .int)])]
    for position in 1..<1000 {
        events.append(EventDescriptor(name: "event\(position)", parameters: [ParameterDescriptor(name: "label", type: String.self, kind: .string)]))
    }
    return EventCatalog(name: "Bench", fingerprint: "0000000000000001", events: events) { name, arguments throws(EventCatalogError) in
        if name == "itemSelected" { return AnalyticsEvent(name: name, parameters: ["row": .int(try arguments.required("row", as: Int.self))]) }
        return AnalyticsEvent(name: name, parameters: ["label": .string(try arguments.required("label", as: String.self))])
    }
}()

/// 1,000 task descriptions; the first matches `/master/tableView/cell` + `did-select`.
let benchmarkDescriptions: [TaskDescription] = [
    TaskDescription(match: ["master/tableView/cell/did-select"], report: "itemSelected", with: ["row": .string("$index")])
] + (1..<1000).map { position in
    TaskDescription(match: ["screen\(position)/list/cell/did-select"], report: "event\(position)", with: ["label": .string("$parent.name")])
}

/// The same first task compiled: what the generator writes for it.
let compiledTask = try! FocusTask(match: "master/tableView/cell/did-select") { node in
    AnalyticsEvent(name: "itemSelected", parameters: ["row": .int(try node.requiredIndex())])
}

let liveTaskBenchmarks: @Sendable () -> Void = {
    let filler = tasks(10_000).tasks.dropFirst()
    let compiled = cell(tasks: 0)
    compiled.0.register(TaskSet(name: "Bench", tasks: [compiledTask] + filler))
    Benchmark("record, compiled task matches (requiredIndex), 10,000 tasks") { benchmark in
        for _ in benchmark.scaledIterations { compiled.1.record(.didSelect) }
        blackHole(compiled)
    }
    let interpreted = cell(tasks: 0)
    let interpretedSet = try! TaskInterpreter.taskSet(named: "Bench", from: [benchmarkDescriptions[0]], catalog: benchmarkCatalog)
    interpreted.0.register(TaskSet(name: "Bench", tasks: interpretedSet.tasks + filler))
    Benchmark("record, interpreted task matches ($index), 10,000 tasks") { benchmark in
        for _ in benchmark.scaledIterations { interpreted.1.record(.didSelect) }
        blackHole(interpreted)
    }

    Benchmark("interpret 1,000 task descriptions") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try! TaskInterpreter.taskSet(named: "Bench", from: benchmarkDescriptions, catalog: benchmarkCatalog))
        }
    }

    let key = Curve25519.Signing.PrivateKey()
    let verifier = TaskBundleVerifier(publicKey: key.publicKey)
    struct Payload: Encodable {
        struct Set: Encodable { var name: String; var catalog: String; var tasks: [TaskDescription] }
        var annaTasks = 1
        var sets: [Set]
    }
    let payload = try! JSONEncoder().encode(Payload(sets: [.init(name: "Bench", catalog: benchmarkCatalog.fingerprint, tasks: benchmarkDescriptions)]))
    let signed = try! SignedTaskBundle(signing: payload, with: key).encoded()
    let loading = Manager(service: nil)
    Benchmark("load a signed bundle of 1,000 tasks (\(signed.count / 1024) KB): verify, decode, check, swap") { benchmark in
        for _ in benchmark.scaledIterations {
            try! loading.load(bundle: signed, verifier: verifier, catalogs: [benchmarkCatalog])
        }
    }
}
