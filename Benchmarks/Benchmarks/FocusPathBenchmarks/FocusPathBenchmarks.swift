@_spi(Capture) import AnnaFocusPaths
import Benchmark
import Foundation

// The cost of one recorded event with 10 and with 10,000 registered tasks (the
// design's target: ≤ 2 µs, the two within 1.5× of each other), and memory per node.

/// `count` tasks of the shapes a large app has: relative, anchored, `*` and `**`
/// patterns over many screens and events. Exactly one matches
/// `/master/tableView/cell` + `did-select`.
func tasks(_ count: Int) -> TaskSet {
    guard count > 0 else { return TaskSet(name: "bench", tasks: []) }
    var tasks: [FocusTask] = []
    tasks.append(try! FocusTask(match: "master/tableView/cell/did-select") { node in
        AnalyticsEvent(name: "itemSelected", parameters: ["row": .int(node.index ?? -1)])
    })
    for position in 1..<count {
        let pattern = switch position % 4 {
        case 0: "screen\(position)/list/cell/did-select"
        case 1: "/screen\(position)/button\(position)/target-action"
        case 2: "screen\(position)/*/appeared"
        default: "/screen\(position)/**/cell\(position)/did-select"
        }
        tasks.append(try! FocusTask(match: pattern) { _ in AnalyticsEvent(name: "task\(position)") })
    }
    return TaskSet(name: "bench", tasks: tasks)
}

/// A manager and the analyzer of one table cell at /master/tableView/cell[3], with
/// the analyzers above it (super analyzers are held weakly, and an analyzer that goes
/// away frees its node, so the caller keeps them).
func cell(tasks count: Int, service: AnalyticsService? = nil) -> (Manager, Analyzer, RootAnalyzer, [Analyzer]) {
    let manager = Manager(service: service, tasks: [tasks(count)])
    let root = RootAnalyzer(manager: manager)
    let master = Analyzer(owner: nil)
    let table = Analyzer(owner: nil)
    let cell = Analyzer(owner: nil)
    root.setSubAnalyzer(master, for: "master")
    master.setSubAnalyzer(table, for: "tableView")
    table.setSubAnalyzer(cell, for: "cell", index: 3, section: 0)
    cell.record(.appeared)
    return (manager, cell, root, [master, table])
}

/// Discards everything, as a provider that is not measured.
struct NullProvider: AnalyticsProvider {
    func receive(_ batch: [AnalyticsEnvelope]) async throws {}
}

let nodesPerMemoryRun = 100_000

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        warmupIterations: 1_000,
        scalingFactor: .one,
        maxDuration: .seconds(5),
        maxIterations: 1_000_000
    )

    for count in [10, 10_000] {
        let (manager, analyzer, root, above) = cell(tasks: count)
        Benchmark("record, task matches, \(count) tasks") { benchmark in
            for _ in benchmark.scaledIterations { analyzer.record(.didSelect) }
            blackHole(manager)
            blackHole(root)
            blackHole(above)
        }
        Benchmark("record, no task matches, \(count) tasks") { benchmark in
            for _ in benchmark.scaledIterations { analyzer.record(.didEndTouch) }
        }
        Benchmark("update value, \(count) tasks") { benchmark in
            for _ in benchmark.scaledIterations { analyzer.update(42, for: "price") }
        }
    }

    let service = AnalyticsService(providers: [NullProvider()])
    let (reportingManager, reportingCell, reportingRoot, reportingAbove) = cell(tasks: 10_000, service: service)
    Benchmark("record, task matches and reports to the service, 10000 tasks") { benchmark in
        for _ in benchmark.scaledIterations { reportingCell.record(.didSelect) }
        blackHole(reportingManager)
        blackHole(reportingRoot)
        blackHole(reportingAbove)
    }

    // The focus-path lock is one for all managers. Two managers recording on two
    // threads at once, against one thread alone: what sharing the lock costs.
    let contended = Benchmark.Configuration(
        metrics: [.wallClock], warmupIterations: 1, scalingFactor: .one, maxDuration: .seconds(10), maxIterations: 20)
    let recordsPerThread = 100_000
    for threads in [1, 2] {
        let cells = (0..<threads).map { _ in cell(tasks: 10_000) }
        Benchmark("\(threads) manager(s) on \(threads) thread(s), 100,000 records each, task matches", configuration: contended) { benchmark in
            for _ in benchmark.scaledIterations {
                DispatchQueue.concurrentPerform(iterations: threads) { thread in
                    let analyzer = cells[thread].1
                    for _ in 0..<recordsPerThread { analyzer.record(.didSelect) }
                }
            }
            blackHole(cells)
        }
    }

    // Memory: 100,000 table rows, each a node with its analyzer and one event, against
    // the same run without the rows. Peak resident memory difference / 100,000 = per node.
    let memory = Benchmark.Configuration(
        metrics: [.wallClock, .peakMemoryResident, .mallocCountTotal],
        warmupIterations: 0,
        scalingFactor: .one,
        maxDuration: .seconds(20),
        maxIterations: 5
    )
    // The analyzers alone, bound to their rows but recording nothing (so no nodes):
    // the difference to the run above is the nodes' own memory.
    Benchmark("\(nodesPerMemoryRun) row analyzers bound, no event (no nodes)", configuration: memory) { benchmark in
        for _ in benchmark.scaledIterations {
            let manager = Manager(service: nil)
            let root = RootAnalyzer(manager: manager)
            let table = Analyzer(owner: nil)
            root.setSubAnalyzer(table, for: "tableView")
            var cells: [Analyzer] = []
            cells.reserveCapacity(nodesPerMemoryRun)
            for row in 0..<nodesPerMemoryRun {
                let cell = Analyzer(owner: nil)
                table.setSubAnalyzer(cell, for: "cell", index: row)
                cells.append(cell)
            }
            blackHole(cells)
            blackHole(root)
        }
    }
    for rows in [0, nodesPerMemoryRun] {
        Benchmark("\(rows) row nodes with one event each", configuration: memory) { benchmark in
            for _ in benchmark.scaledIterations {
                let manager = Manager(service: nil)
                let root = RootAnalyzer(manager: manager)
                let table = Analyzer(owner: nil)
                root.setSubAnalyzer(table, for: "tableView")
                var cells: [Analyzer] = []
                cells.reserveCapacity(rows)
                for row in 0..<rows {
                    let cell = Analyzer(owner: nil)
                    table.setSubAnalyzer(cell, for: "cell", index: row)
                    cell.record(.appeared)
                    cells.append(cell)
                }
                blackHole(cells)
                blackHole(root)
            }
        }
    }

    // Scrolling: 12 reused cells bound in turn to 10,000 and to 100,000 rows, each row
    // appearing, getting a value and disappearing. Flat memory: the two peaks match,
    // since rows a cell left are kept up to a bound and then freed.
    for rows in [10_000, 100_000] {
        Benchmark("scroll \(rows) rows through 12 reused cells", configuration: memory) { benchmark in
            for _ in benchmark.scaledIterations {
                let manager = Manager(service: nil)
                let root = RootAnalyzer(manager: manager)
                let table = Analyzer(owner: nil)
                root.setSubAnalyzer(table, for: "tableView")
                let cells = (0..<12).map { _ in Analyzer(owner: nil) }
                for row in 0..<rows {
                    let cell = cells[row % cells.count]
                    table.setSubAnalyzer(cell, for: "cell", index: row, section: 0)
                    cell.record(.appeared)
                    cell.update(row, for: "row")
                    cell.record(.disappeared)
                }
                blackHole(cells)
                blackHole(root)
            }
        }
    }
    // Capture: a reused cell scrolled through 100,000 rows again and again (will-display
    // + end-displaying through the capture core), the cost per row; and a selection.
    let (scrollManager, _, scrollRoot, scrollChain) = cell(tasks: 10)
    let scrollTable = Analyzer(owner: nil)
    scrollRoot.setSubAnalyzer(scrollTable, for: "list")
    let reused = Analyzer(owner: nil)
    var reusedState = ViewVisibility()
    let facts = ViewFacts(isInWindow: true, isHidden: false, isScreenVisible: true)
    var nextRow = 0
    Benchmark("capture: will-display + end-displaying, one reused cell") { benchmark in
        for _ in benchmark.scaledIterations {
            AnnaCapture.cellWillDisplay(reused, in: scrollTable, row: nextRow % 100_000, section: 0, facts: facts, state: &reusedState)
            AnnaCapture.cellDidEndDisplaying(reused, facts: facts, state: &reusedState)
            nextRow += 1
        }
        blackHole(scrollManager)
        blackHole(scrollChain)
    }
    let (selectManager, selectCell, selectRoot, selectChain) = cell(tasks: 10)
    Benchmark("capture: didSelect (focus + did-select), task matches, 10 tasks") { benchmark in
        for _ in benchmark.scaledIterations { AnnaCapture.didSelect(selectCell) }
        blackHole(selectManager)
        blackHole(selectRoot)
        blackHole(selectChain)
    }

    liveTaskBenchmarks()
}
