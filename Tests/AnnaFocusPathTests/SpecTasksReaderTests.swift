@_spi(Generated) import Anna
@_spi(Generated) import AnnaFocusPaths
import Foundation
import Testing

/// The runtime's reader of `tasks:` gives the descriptions the generator writes, for
/// every spec compiled into this target, and refuses what it does not read with a
/// line and column.
@Suite struct SpecTasksReaderTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    @Test(arguments: [("master-detail.anna.yml", TaskDescription.masterDetail, "MasterDetail"), ("live-tasks.anna.yml", TaskDescription.liveTasks, "LiveTasks")])
    func readsWhatTheGeneratorWrote(_ file: String, _ generated: [TaskDescription], _ namespace: String) throws {
        let text = try String(contentsOf: Self.folder.appending(path: file), encoding: .utf8)
        let result = try SpecTasksReader.read(text, file: Self.folder.appending(path: file).path)
        #expect(result.namespace == namespace)
        #expect(result.tasks == generated)
    }

    @Test func otherStylesOfTheSameYAML() throws {
        let text = """
            anna: 1   # a comment
            events: {}
            tasks:
            # the first task
            - match:
              - list/cell/did-select     # two patterns, block style
              - 'grid/item/did-select'
              report: "rowOpened"
              with: { row: $index, list: "#1: $$cheap", ratio: 1.5e2, flag: TRUE, none: ~ }
            - report: plain
              match: [a/x, "b/y"]
            globals: {}
            """
        let result = try SpecTasksReader.read(text, file: "style.anna.yml")
        #expect(result.namespace == nil)
        #expect(result.tasks == [
            TaskDescription(
                match: ["list/cell/did-select", "grid/item/did-select"], report: "rowOpened",
                with: ["row": .string("$index"), "list": .string("#1: $$cheap"), "ratio": .double(150), "flag": .bool(true), "none": .null],
                source: "style.anna.yml:5:3"),
            TaskDescription(match: ["a/x", "b/y"], report: "plain", source: "style.anna.yml:10:3"),
        ])
    }

    @Test func whatItDoesNotReadIsRefusedWithAPlace() {
        func failure(_ tasks: String) -> String? {
            do {
                _ = try SpecTasksReader.read("anna: 1\ntasks:\n" + tasks, file: "x.anna.yml")
                return nil
            } catch {
                return error.description
            }
        }
        #expect(failure("  - match: a/x\n    report: &anchor plain\n")
            == "x.anna.yml:4:13: error: hot reload does not read '&' (anchors, aliases, tags, multi-line scalars); rebuild to apply this spec")
        #expect(failure("  - match: a/x\n    report: plain\n    with:\n      text: |\n") != nil)
        #expect(failure("  - match: a/x\n    reprt: plain\n") == "x.anna.yml:4:5: error: unknown key 'reprt' in a task; expected one of: match, report, with")
        #expect(failure("  match: a/x\n") == "x.anna.yml:3:3: error: expected a task, '- match: …', here")
        #expect(failure("  - match: [a/x\n") == "x.anna.yml:3:12: error: the flow collection does not end on its line; hot reload reads one-line collections, rebuild to apply this one")
        #expect(failure("  - match: \"a/x\n") != nil)
    }
}
