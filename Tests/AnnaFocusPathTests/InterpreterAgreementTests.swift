@_spi(Generated) import Anna
@_spi(Generated) import AnnaFocusPaths
import AnnaTesting
import Foundation
import Testing

/// The interpreter and the compiled tasks agree: every task of the specs compiled
/// into this target, run on the same headless scenarios through the build plugin's
/// `TaskSet` and through `TaskInterpreter` with the same spec's `TaskDescription`s,
/// reports the same events and the same errors.
@Suite(.timeLimit(.minutes(10))) struct InterpreterAgreementTests {
    /// Every spec of this target that has tasks: its compiled tasks, its tasks as data
    /// and its catalog.
    static let specs: [(name: String, compiled: TaskSet, descriptions: [TaskDescription], catalog: EventCatalog)] = [
        ("master-detail", .masterDetail, TaskDescription.masterDetail, .masterDetail),
        ("live-tasks", .liveTasks, TaskDescription.liveTasks, .liveTasks),
    ]

    enum Values: CaseIterable { case typed, mismatched, none }

    /// A chain of analyzers the pattern matches, each appearing, with values, then the
    /// pattern's event on the last: the results and errors a task gives.
    static func run(_ task: FocusTask, pattern: String, indexed: Bool, values: Values) async -> ([AnalyticsEvent], [String]) {
        let clock = TestClock()
        let manager = Manager(service: nil, tasks: [TaskSet(name: "scenario", tasks: [task])], clock: clock.now)
        let delegate = RecordingManagerDelegate()
        manager.delegate = delegate
        manager.delegateQueue = delegate.queue
        let root = RootAnalyzer(manager: manager)
        var components = pattern.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let event = components.removeLast()
        var names: [String] = []
        if components.first == "" { components.removeFirst() } else { names.append("top") }
        for component in components where component != "**" { names.append(component == "*" ? "any" : component) }
        var chain: [Analyzer] = []
        for (depth, name) in names.enumerated() {
            let analyzer = Analyzer(owner: nil)
            let parent: Analyzer = chain.last ?? root
            if indexed {
                parent.setSubAnalyzer(analyzer, for: name, index: depth + 1, section: depth)
            } else {
                parent.setSubAnalyzer(analyzer, for: name)
            }
            chain.append(analyzer)
        }
        for analyzer in chain {
            analyzer.record(.appeared)
            clock.advance(by: 1.5)
            switch values {
            case .typed:
                analyzer.update("hello", for: "text")
                analyzer.update(7, for: "count")
                analyzer.update("books", for: "category")
                analyzer.update(["a", "b"], for: "tags")
                analyzer.update(URL(string: "https://example.com/x")!, for: "link")
                analyzer.update(UUID(uuidString: "5A4B2D1E-0000-4000-8000-000000000001")!, for: "token")
                analyzer.update("maybe", for: "maybe")
            case .mismatched:
                for key in ["text", "count", "category", "tags", "link", "token", "maybe"] { analyzer.update(true, for: key) }
            case .none:
                break
            }
            clock.advance(by: 0.5)
        }
        if event != "appeared" && event != "updated" { chain.last?.record(FocusEvent.Name(rawValue: event)) }
        await delegate.drain()
        withExtendedLifetime((root, chain)) {}
        return (delegate.results, delegate.errors)
    }

    @Test(arguments: specs.map(\.name)) func everyTaskAgrees(_ spec: String) async throws {
        let fixture = try #require(Self.specs.first { $0.name == spec })
        #expect(fixture.compiled.tasks.count == fixture.descriptions.count)
        for (position, description) in fixture.descriptions.enumerated() {
            let compiled = fixture.compiled.tasks[position]
            let interpreted = try TaskInterpreter.taskSet(named: "x", from: [description], catalog: fixture.catalog).tasks[0]
            #expect(interpreted.patterns == compiled.patterns)
            var reported = 0
            for pattern in description.match {
                for indexed in [true, false] {
                    for values in Values.allCases {
                        let expected = await Self.run(compiled, pattern: pattern, indexed: indexed, values: values)
                        let actual = await Self.run(interpreted, pattern: pattern, indexed: indexed, values: values)
                        #expect(actual.0 == expected.0, "\(spec) task \(position) \(pattern) indexed \(indexed) \(values)")
                        #expect(actual.1 == expected.1, "\(spec) task \(position) \(pattern) indexed \(indexed) \(values)")
                        reported += expected.0.count
                    }
                }
            }
            // Not agreeing by both failing: every task reports in some scenario.
            #expect(reported > 0, "\(spec) task \(position) reported nothing in any scenario")
        }
    }

    @Test func theCheckedFactoryBuildsTheTypedFactorysEvent() throws {
        let values: [String: AnalyticsValue] = [
            "text": .string("t"), "count": .int(2), "category": .string("toys"), "tags": .array([.string("x")]),
            "link": .string("https://example.com"), "token": .uuid(UUID(uuidString: "5A4B2D1E-0000-4000-8000-000000000002")!),
        ]
        let event = try EventCatalog.liveTasks.event(named: "valuesRead", values: values)
        #expect(event == .valuesRead(
            text: "t", count: 2, category: .toys, tags: ["x"], link: URL(string: "https://example.com")!,
            token: UUID(uuidString: "5A4B2D1E-0000-4000-8000-000000000002")!))
        #expect(try EventCatalog.liveTasks.event(named: "plain", values: [:]) == .plain)
        #expect(try EventCatalog.masterDetail.event(named: "itemSelected", values: ["id": .string("a"), "row": .int(1), "title": .string("T")])
            == .itemSelected(id: "a", row: 1, title: "T"))
    }

    @Test func theCatalogRefusesWhatTheSpecDoesNotDeclare() {
        func refusal(_ name: String, _ values: [String: AnalyticsValue]) -> String? {
            do {
                _ = try EventCatalog.liveTasks.event(named: name, values: values)
                return nil
            } catch {
                return error.message
            }
        }
        #expect(refusal("valueRead", [:]) == "'valueRead' is not an event of LiveTasks; did you mean 'valuesRead'?")
        #expect(refusal("plain", ["extra": .int(1)]) == "event 'plain' has no parameter 'extra'")
        #expect(refusal("ancestorsRead", ["parentName": .string("n")]) == "event 'ancestorsRead' needs a value for its required parameter 'parentIndex'")
        #expect(refusal("ancestorsRead", ["parentIndex": .string("1"), "parentName": .string("n")])
            == "parameter 'parentIndex' of event 'ancestorsRead' takes int, not a string")
        var values: [String: AnalyticsValue] = [
            "label": .string("l"), "dollar": .string("d"), "ratio": .double(1), "exact": .double(1), "flag": .bool(true),
            "count": .int(1), "link": .string("https://e.com"), "token": .string("5A4B2D1E-0000-4000-8000-000000000002"),
            "when": .date(Date(timeIntervalSince1970: 0)),
        ]
        values["category"] = .string("games")
        #expect(refusal("literalsSent", values) == "parameter 'category' of event 'literalsSent' takes Category, not a string")
        values["category"] = .string("books")
        #expect(refusal("literalsSent", values) == nil)
    }

    @Test func theFingerprintIsInTheCatalog() {
        #expect(EventCatalog.liveTasks.fingerprint.count == 16)
        #expect(EventCatalog.liveTasks.fingerprint != EventCatalog.masterDetail.fingerprint)
        #expect(EventCatalog.liveTasks.events.map(\.name) == ["nodeRead", "valuesRead", "ancestorsRead", "literalsSent", "plain"])
    }
}
