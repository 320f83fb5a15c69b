@_spi(Generated) import Anna
@_spi(Generated) import AnnaFocusPaths
import AnnaTesting
import Foundation
import Testing

/// Looks nodes up by path, for assertions.
extension Manager {
    struct Probe {
        let manager: Manager
        init(_ manager: Manager) { self.manager = manager }
        func latestValue(_ path: String, index: Int?, section: Int?, _ keyPath: String) -> AnalyticsValue? {
            manager.inspectNode(at: path, index: index, section: section) { $0.latestValue(keyPath) } ?? nil
        }
        func isVisible(_ path: String, index: Int?, section: Int?) -> Bool? {
            manager.inspectNode(at: path, index: index, section: section) { $0.isVisible() }
        }
        func serial(_ path: String, index: Int?, section: Int?) -> ObjectIdentifier? {
            manager.inspectNode(at: path, index: index, section: section) { ObjectIdentifier($0) }
        }
    }
}

/// Anna's own test scenarios, ported to the headless responder tree, with tasks
/// written in Swift.
@Suite(.timeLimit(.minutes(10))) struct ScenarioTests {
    /// Reports `seen(path:event:index:)` for every event matching `pattern`.
    static func trace(_ manager: Manager, _ pattern: String) {
        manager.match(pattern) { node in
            let event = try node.requiredLatestEvent()
            var parameters: [String: AnalyticsValue] = ["path": .string(node.path), "event": .string(event.name.rawValue)]
            if let index = node.index { parameters["index"] = .int(index) }
            if let section = node.section { parameters["section"] = .int(section) }
            if let keyPath = event.keyPath { parameters["keyPath"] = .string(keyPath) }
            if let value = event.value { parameters["value"] = value }
            return AnalyticsEvent(name: "seen", parameters: parameters)
        }
    }

    static func seen(_ path: String, _ event: String, index: Int? = nil, section: Int? = nil) -> AnalyticsEvent {
        var parameters: [String: AnalyticsValue] = ["path": .string(path), "event": .string(event)]
        if let index { parameters["index"] = .int(index) }
        if let section { parameters["section"] = .int(section) }
        return AnalyticsEvent(name: "seen", parameters: parameters)
    }

    @Test func pathsThroughNavigationAndTabContainers() async {
        let app = App(tasks: [])
        Self.trace(app.manager, "appeared")
        let home = NamedScreen("home")
        let settings = NamedScreen("settings")
        let tabs = HeadlessTabBarController(tabs: [HeadlessNavigationController(root: home), settings])
        app.application.window.show(tabs)
        tabs.select(1)
        let profile = NamedScreen("profile")
        (tabs.tabs[0] as? HeadlessNavigationController)?.push(profile)
        tabs.select(0)

        let results = await app.delegate.waitForResults(count: 3)
        #expect(results == [
            Self.seen("/home", "appeared"),
            Self.seen("/settings", "appeared"),
            Self.seen("/home/profile", "appeared"),   // pushed from home while its tab was hidden
        ])
        // A screen pushed in one tab never lands under what another tab focused.
        #expect(settings.analyzer.path == "/settings")
    }

    @Test func aCustomRedirectMovesTheWalk() async {
        /// A split container that puts its secondary screen under its primary one.
        final class SplitContainer: HeadlessScreen {
            let primary: HeadlessScreen
            let secondary: HeadlessScreen
            init(primary: HeadlessScreen, secondary: HeadlessScreen) {
                self.primary = primary
                self.secondary = secondary
                super.init()
                addChild(primary)
                addChild(secondary)
            }
            override func redirectedConstitutor(for child: any FocusPathConstituting) -> (any FocusPathConstituting)? {
                child === secondary ? primary : nil
            }
            override func appear() {
                super.appear()
                primary.appear()
                secondary.appear()
            }
        }
        let app = App(tasks: [])
        let split = SplitContainer(primary: NamedScreen("sidebar"), secondary: NamedScreen("content"))
        app.application.window.show(split)
        #expect(split.primary.analyzer.path == "/sidebar")
        #expect(split.secondary.analyzer.path == "/sidebar/content")
    }

    @Test func focusAfterAButtonAndAfterATableSelection() async {
        let app = App(tasks: [])
        let master = MasterScreen()
        let navigation = HeadlessNavigationController(root: master)
        app.application.window.show(navigation)
        master.table.display(rows: ["a", "b"])

        master.composeButton.tap()
        let editor = NamedScreen("editor")
        navigation.push(editor)
        #expect(editor.analyzer.path == "/master/compose/editor")
        navigation.pop()

        master.table.select(row: 0)
        let modal = NamedScreen("modal")
        master.present(modal)
        #expect(modal.analyzer.path == "/master/tableView/cell/modal")
    }

    @Test func standaloneNamesFindTheNearestEnabledAnalyzerUpTheChain() async {
        let app = App(tasks: [])
        let screen = NamedScreen("settings")
        app.application.window.show(screen)
        let container = HeadlessView()          // no analyzer of its own: skipped
        let toggle = HeadlessView()
        screen.view.addSubview(container)
        container.addSubview(toggle)
        toggle.analyzer.enable(naming: "darkMode")
        toggle.analyzer.record("switched")
        #expect(toggle.analyzer.path == "/settings/darkMode")
    }

    @Test func tableRowsAndSectionsAppearWithTheirValues() async {
        let app = App(tasks: [])
        Self.trace(app.manager, "tableView/*/appeared")
        let master = MasterScreen()
        app.application.window.show(master)
        master.table.display(sections: [["a", "b"], ["c"]])

        let results = await app.delegate.waitForResults(count: 5)
        #expect(results == [
            Self.seen("/master/tableView/section", "appeared", index: 0),
            Self.seen("/master/tableView/cell", "appeared", index: 0, section: 0),
            Self.seen("/master/tableView/cell", "appeared", index: 1, section: 0),
            Self.seen("/master/tableView/section", "appeared", index: 1),
            Self.seen("/master/tableView/cell", "appeared", index: 0, section: 1),
        ])
        let values = Manager.Probe(app.manager)
        #expect(values.latestValue("/master/tableView/cell", index: 0, section: 1, "text") == "c")
        #expect(values.isVisible("/master/tableView/cell", index: 1, section: 0) == true)
    }

    @Test func subAnalyzersFromAnArrayGetIndexes() async {
        let app = App(tasks: [])
        Self.trace(app.manager, "carousel/item/tapped")
        let screen = NamedScreen("home")
        app.application.window.show(screen)
        let items = (0..<3).map { _ in HeadlessView() }
        let carousel = HeadlessView()
        screen.analyzer.setSubAnalyzer(carousel.analyzer, for: "carousel")
        carousel.analyzer.setSubAnalyzers(items.map(\.analyzer), for: "item")
        items[2].analyzer.record("tapped")
        items[0].analyzer.record("tapped")

        let results = await app.delegate.waitForResults(count: 2)
        #expect(results == [
            Self.seen("/home/carousel/item", "tapped", index: 2),
            Self.seen("/home/carousel/item", "tapped", index: 0),
        ])
    }

    @Test func cellReuseKeepsEachRowsNode() async {
        let app = App(tasks: [])
        let master = MasterScreen()
        app.application.window.show(master)
        master.table.reloadData([["a", "b", "c"]])
        let probe = Manager.Probe(app.manager)

        let first = master.table.displayRow(0)
        let row0 = probe.serial("/master/tableView/cell", index: 0, section: 0)
        master.table.endDisplayingRow(0)
        let reused = master.table.displayRow(1)
        #expect(first === reused)                       // one cell object…
        #expect(master.table.createdCellCount == 1)
        #expect(probe.latestValue("/master/tableView/cell", index: 1, section: 0, "text") == "b")
        #expect(probe.latestValue("/master/tableView/cell", index: 0, section: 0, "text") == "a")  // …two rows' state
        #expect(probe.isVisible("/master/tableView/cell", index: 0, section: 0) == false)
        master.table.endDisplayingRow(1)
        master.table.displayRow(0)
        #expect(probe.serial("/master/tableView/cell", index: 0, section: 0) == row0)  // the same node again
    }

    @Test func detachingRemovesTheBranchAndStopsItsTasks() async {
        let app = App(tasks: [])
        Self.trace(app.manager, "detail/**/tapped")
        let screen = NamedScreen("detail")
        app.application.window.show(screen)
        let button = HeadlessButton()
        screen.analyzer.setSubAnalyzer(button.analyzer, for: "button")
        button.analyzer.record("tapped")
        _ = await app.delegate.waitForResults(count: 1)

        screen.analyzer.detach()
        button.analyzer.record("tapped")
        screen.analyzer.record("tapped")
        #expect(!app.manager.snapshot().contains("<detail "))
        #expect(!app.manager.snapshot().contains("<button "))
        #expect(button.analyzer.path == nil)
        await app.delegate.drain()
        #expect(app.delegate.results.count == 1)
    }

    @Test func reloadingATableResetsItsRows() async {
        let app = App(tasks: [])
        let master = MasterScreen()
        app.application.window.show(master)
        master.table.display(rows: ["a", "b"])
        let probe = Manager.Probe(app.manager)
        let before = probe.serial("/master/tableView/cell", index: 0, section: 0)

        master.table.reloadData([["x"]])
        #expect(probe.serial("/master/tableView/cell", index: 0, section: 0) == nil)
        master.table.displayRow(0)
        let after = probe.serial("/master/tableView/cell", index: 0, section: 0)
        #expect(after != nil && after != before)
        #expect(probe.latestValue("/master/tableView/cell", index: 0, section: 0, "text") == "x")
        #expect(probe.serial("/master/tableView/cell", index: 1, section: 0) == nil)
    }

    @Test func eventsBeforeTheNodeResolvesAreAppliedWhenItDoes() async {
        let app = App(tasks: [])
        Self.trace(app.manager, "late/early")
        let screen = NamedScreen("late")
        screen.analyzer.enable(naming: "late")
        screen.analyzer.record("early")                // not on any chain yet
        #expect(screen.analyzer.path == nil)
        app.application.window.show(screen)             // now under the window
        let results = await app.delegate.waitForResults(count: 1)
        #expect(results == [Self.seen("/late", "early")])
    }

    @Test func aTaskThatReturnsNothingReportsNothingAndAFailingTaskIsReported() async {
        let app = App(tasks: [])
        app.manager.match("screen/opened") { _ in nil }
        app.manager.match("screen/opened") { node in
            .init(name: "opened", parameters: ["row": .int(try node.requiredIndex())])
        }
        app.manager.match("screen//opened") { _ in nil }
        let screen = NamedScreen("screen")
        app.application.window.show(screen)
        screen.analyzer.record("opened")

        let errors = await app.delegate.waitForErrors(count: 2)
        #expect(errors[0] == "match 'screen//opened' has an empty component; remove the extra '/'")
        #expect(errors[1].hasPrefix("task 'screen/opened' (AnnaFocusPathTests/ScenarioTests.swift:"))
        #expect(errors[1].hasSuffix("on /screen: the node has no index"))
        await app.delegate.drain()
        #expect(app.delegate.results.isEmpty)
        await app.service.flush()
        #expect(app.recorder.events.isEmpty)
    }

    /// Values may be personal data: a task's error names the key and the types, and a
    /// hand-written task's own error by its type, never the recorded value.
    @Test func taskErrorsNameKeysAndTypesNeverValues() async {
        struct Refused: Error, CustomStringConvertible {
            let email: String
            var description: String { "refused \(email)" }
        }
        let app = App(tasks: [])
        app.manager.match("profile/opened") { node in
            .init(name: "opened", parameters: ["age": .int(try node.requiredValue("email", as: Int.self))])
        }
        app.manager.match("profile/opened") { node in
            throw Refused(email: try node.requiredValue("email", as: String.self))
        }
        let screen = NamedScreen("profile")
        app.application.window.show(screen)
        screen.analyzer.update("alice@example.com", for: "email")
        screen.analyzer.record("opened")

        let errors = await app.delegate.waitForErrors(count: 2)
        #expect(errors.count == 2)
        #expect(errors.allSatisfy { !$0.contains("alice") })
        #expect(errors.first?.hasSuffix("on /profile: value 'email' is a string, not Int") == true)
        #expect(errors.last?.contains("on /profile: the task threw ") == true && errors.last?.hasSuffix("Refused") == true)
    }

    @Test func tenThousandTasksFireOnlyWhereTheyMatch() async {
        let app = App(tasks: [])
        var tasks: [FocusTask] = []
        for position in 0..<10_000 {
            let pattern = ["list\(position)/cell/did-select", "/screen\(position)/appeared", "*/row\(position)/**/tapped"][position % 3]
            tasks.append(try! FocusTask(match: pattern) { _ in AnalyticsEvent(name: "task\(position)") })
        }
        app.manager.register(TaskSet(name: "many", tasks: tasks))
        #expect(app.manager.taskCount == 10_000)
        let screen = NamedScreen("screen4")
        app.application.window.show(screen)
        let row = HeadlessView()
        let deep = HeadlessView()
        screen.analyzer.setSubAnalyzer(row.analyzer, for: "row5")
        row.analyzer.setSubAnalyzer(deep.analyzer, for: "x")
        deep.analyzer.record("tapped")              // /screen4/row5/x: matches */row5/**/tapped
        row.analyzer.record("tapped")               // /screen3/row5: matches too (** is none)

        let results = await app.delegate.waitForResults(count: 3)
        #expect(results.map(\.name) == ["task4", "task5", "task5"])
    }

    @Test func eventsFromManyThreadsAreAllMatched() async {
        let app = App(tasks: [])
        app.manager.match("home/*/tapped") { node in AnalyticsEvent(name: "tap", parameters: ["row": .int(node.index ?? -1)]) }
        let screen = NamedScreen("home")
        app.application.window.show(screen)
        let items = (0..<8).map { _ in HeadlessView() }
        screen.analyzer.setSubAnalyzers(items.map(\.analyzer), for: "item")
        let analyzers = items.map(\.analyzer)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for _ in 0..<500 { analyzers[thread].record("tapped") }
        }
        let results = await app.delegate.waitForResults(count: 4_000)
        #expect(results.count == 4_000)
        for row in 0..<8 { #expect(results.filter { $0.parameters["row"] == .int(row) }.count == 500) }
        await app.service.flush()
        #expect(app.recorder.events.count == 4_000)
    }
}

/// Tasks that match the same event run in registration order, and a task may record
/// on an analyzer itself (the manager's lock is re-entrant).
@Suite(.timeLimit(.minutes(10))) struct TaskOrderTests {
    @Test func matchingTasksRunInRegistrationOrderAndMayRecordAgain() async {
        let app = App(tasks: [])
        let screen = NamedScreen("home")
        app.application.window.show(screen)
        let analyzer = screen.analyzer
        app.manager.match("**/opened") { _ in AnalyticsEvent(name: "first") }
        app.manager.match("/home/opened") { _ in
            analyzer.record("echo")                        // re-enters the manager
            return AnalyticsEvent(name: "second")
        }
        app.manager.match("home/opened") { _ in AnalyticsEvent(name: "third") }
        app.manager.match("*/opened") { _ in AnalyticsEvent(name: "fourth") }
        app.manager.match("home/echo") { _ in AnalyticsEvent(name: "echoed") }
        screen.analyzer.record("opened")
        let results = await app.delegate.waitForResults(count: 5)
        #expect(results.map(\.name) == ["echoed", "first", "second", "third", "fourth"])
    }
}

@Suite(.timeLimit(.minutes(10))) struct NamingTests {
    @Test func aSuperAnalyzersKeyWinsOverAStandaloneName() {
        let app = App(tasks: [])
        let screen = NamedScreen("home")
        app.application.window.show(screen)
        let list = HeadlessView()
        screen.view.addSubview(list)
        list.analyzer.enable(naming: "standaloneList")
        screen.analyzer.setSubAnalyzer(list.analyzer, for: "list")
        list.analyzer.enable(naming: "renamed")          // after the key: the key still wins
        list.analyzer.record("shown")
        #expect(list.analyzer.path == "/home/list")
    }
}
