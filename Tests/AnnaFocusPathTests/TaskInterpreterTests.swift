@_spi(Generated) import Anna
@_spi(Generated) import AnnaFocusPaths
import AnnaRules
import AnnaTesting
import Foundation
import Testing

/// Tasks built at run time: every way a description can be wrong is refused whole,
/// with every problem named, and the running tasks stay; a valid one replaces its
/// set at once.
@Suite(.timeLimit(.minutes(10))) struct TaskInterpreterTests {
    func problems(_ descriptions: [TaskDescription]) -> [String] {
        do {
            _ = try TaskInterpreter.taskSet(named: "x", from: descriptions, catalog: .liveTasks)
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    @Test func eachWayADescriptionCanBeWrong() {
        #expect(problems([TaskDescription(match: ["row/target-action"], report: "literalSent", source: "remote:1")])
            == ["task 0 (remote:1): the task reports 'literalSent', which LiveTasks does not declare; did you mean 'literalsSent'?"])
        #expect(problems([TaskDescription(match: [], report: "plain")]) == ["task 0: 'match' is empty; give a pattern, e.g. list/cell/did-select"])
        #expect(problems([TaskDescription(match: ["row//did-select"], report: "plain")]).count == 1)
        #expect(problems([TaskDescription(match: ["a/did-select"], report: "plain", with: ["row": .int(1)])])
            == ["task 0: event 'plain' has no parameter 'row'"])
        #expect(problems([TaskDescription(match: ["a/did-select"], report: "ancestorsRead", with: ["parentIndex": .string("$index")])])
            == ["task 0: the task reporting 'ancestorsRead' gives no value for its required parameter 'parentName'; add it under 'with'"])
        #expect(problems([TaskDescription(match: ["a/x"], report: "ancestorsRead", with: ["parentIndex": .string("$indx"), "parentName": .string("$name")])])
            == ["task 0: '$indx' is not a task expression; \(FocusExpression.syntaxHelp)"])
        #expect(problems([TaskDescription(match: ["a/x"], report: "ancestorsRead", with: ["parentIndex": .string("$name"), "parentName": .string("$name")])])
            == ["task 0: '$name' is a string; parameter 'parentIndex' takes int"])
        #expect(problems([TaskDescription(match: ["a/x"], report: "ancestorsRead", with: ["parentIndex": .string("1"), "parentName": .null])])
            == ["task 0: the string '1' does not fit parameter 'parentIndex' of type int", "task 0: null does not fit parameter 'parentName' of type string"])
        let literals: [String: TaskValue] = [
            "label": .string("l"), "dollar": .string("$$d"), "ratio": .int(2), "exact": .double(0.5), "flag": .bool(false),
            "count": .int(1), "link": .string("not a url"), "token": .string("nope"), "when": .string("yesterday"),
            "category": .string("games"),
        ]
        #expect(problems([TaskDescription(match: ["a/x"], report: "literalsSent", with: literals)]) == [
            "task 0: 'games' is not a value of Category",
            "task 0: 'not a url', which is not an absolute URL, does not fit parameter 'link' of type url",
            "task 0: 'nope', which is not a UUID, does not fit parameter 'token' of type uuid",
            "task 0: 'yesterday', which is not an ISO 8601 date, does not fit parameter 'when' of type date",
        ])
        #expect(problems([TaskDescription(match: ["a/x"], report: "valuesRead", with: ["tags": .string("a")])]).first
            == "task 0: a single value does not fit parameter 'tags' of type [string]")
    }

    @Test func everyProblemOfEveryTaskAtOnce() {
        let found = problems([
            TaskDescription(match: ["a/x"], report: "plain"),
            TaskDescription(match: ["a/x"], report: "nope"),
            TaskDescription(match: ["a/x"], report: "plain", with: ["z": .int(1)]),
        ])
        #expect(found.map { $0.prefix(6) } == ["task 1", "task 2"])
    }

    @Test func aValidLoadReplacesTheSetAndABadOneKeepsIt() async throws {
        let tree = PlainTree(tasks: [.liveTasks])
        let list = tree.analyzer("screen")
        let row = Analyzer(owner: nil)
        let cells = Analyzer(owner: nil)
        list.setSubAnalyzer(cells, for: "list")
        cells.setSubAnalyzer(row, for: "row", index: 4)
        let count = tree.manager.taskCount

        // The compiled literal task runs.
        row.record(.targetAction)
        #expect(await tree.delegate.waitForResults(count: 1).last?.name == "literalsSent")

        // A bad description changes nothing.
        #expect(throws: TaskError.self) {
            try tree.manager.loadTasks([TaskDescription(match: ["row/target-action"], report: "nope")], catalog: .liveTasks)
        }
        #expect(tree.manager.taskCount == count)
        row.record(.targetAction)
        #expect(await tree.delegate.waitForResults(count: 2).last?.name == "literalsSent")

        // A valid one replaces the whole set: the old tasks stop, the new one runs.
        try tree.manager.loadTasks(
            [TaskDescription(match: ["row/target-action"], report: "ancestorsRead", with: ["parentIndex": .string("$index"), "parentName": .string("$parent.name")])],
            catalog: .liveTasks)
        #expect(tree.manager.taskCount == 1)
        row.record(.targetAction)
        let results = await tree.delegate.waitForResults(count: 3)
        #expect(results.last == .ancestorsRead(parentIndex: 4, parentName: "list"))
        #expect(results.count == 3)
    }

    @Test func descriptionsDecodeFromJSON() throws {
        let json = #"[{"match": "row/target-action", "report": "plain"}, {"match": ["a/x", "b/x"], "report": "ancestorsRead", "with": {"parentIndex": "$index", "parentName": "$$name", "grandparentSection": null}, "source": "bundle:2"}]"#
        let descriptions = try JSONDecoder().decode([TaskDescription].self, from: Data(json.utf8))
        #expect(descriptions == [
            TaskDescription(match: ["row/target-action"], report: "plain"),
            TaskDescription(
                match: ["a/x", "b/x"], report: "ancestorsRead",
                with: ["parentIndex": .string("$index"), "parentName": .string("$$name"), "grandparentSection": .null], source: "bundle:2"),
        ])
        let set = try TaskInterpreter.taskSet(named: "LiveTasks", from: descriptions, catalog: .liveTasks)
        #expect(set.tasks.count == 2)
        #expect(set.tasks[1].source == "bundle:2")
        let encoded = try JSONDecoder().decode([TaskDescription].self, from: JSONEncoder().encode(descriptions))
        #expect(encoded == descriptions)
    }

    @Test func theGeneratedDescriptionsAreTheSpecsTasks() {
        #expect(TaskDescription.liveTasks.count == 5)
        let literals = TaskDescription.liveTasks[3]
        #expect(literals.with["dollar"] == .string("$$5 off"))
        #expect(literals.with["ratio"] == .int(2))
        #expect(literals.with["none"] == .null)
        #expect(literals.with["category"] == .string("music"))
        #expect(literals.with["when"] == .string("2026-11-24T10:00:00Z"))
        #expect(literals.source == "live-tasks.anna.yml:85:5")
    }
}
