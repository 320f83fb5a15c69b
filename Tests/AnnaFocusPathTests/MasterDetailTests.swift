@_spi(Generated) import Anna
@_spi(Generated) import AnnaFocusPaths
import AnnaTesting
import Testing

/// The seed README's example end to end: tasks from master-detail.anna.yml, generated
/// by the build plugin, fire along the focus path and reach the delegate and the service.
@Suite(.timeLimit(.minutes(10))) struct MasterDetailTests {
    @Test func selectingARowAndTappingTheDetailButtonReportsAlongTheFocusPath() async throws {
        let app = App()
        let (master, navigation) = app.showMaster(rows: ["Fruit", "Bread", "Cheese"])

        master.table.select(row: 1)
        let detail = DetailScreen()
        navigation.push(detail)
        detail.button.tap()

        // Pushing the detail takes the master and its rows off screen.
        let results = await app.delegate.waitForResults(count: 6)
        #expect(results == [
            .itemSelected(id: "/master/tableView/cell", row: 1, title: "Bread"),
            .rowViewed(row: 0, list: "tableView", seconds: 0),
            .rowViewed(row: 1, list: "tableView", seconds: 0),
            .rowViewed(row: 2, list: "tableView", seconds: 0),
            .detailShown,
            .detailButtonTapped(path: "/master/tableView/cell/detail/button", row: 1, title: "Bread"),
        ])
        #expect(detail.analyzer.path == "/master/tableView/cell/detail")
        #expect(detail.button.analyzer.path == "/master/tableView/cell/detail/button")

        await app.service.flush()
        #expect(app.recorder.events == results)
        #expect(app.delegate.errors.isEmpty)
    }

    @Test func aSecondDetailLandsUnderTheRowSelectedSecond() async throws {
        let app = App()
        let (master, navigation) = app.showMaster(rows: ["Fruit", "Bread", "Cheese"])

        master.table.select(row: 0)
        let first = DetailScreen()
        navigation.push(first)
        first.button.tap()
        navigation.pop()
        master.table.select(row: 2)
        let second = DetailScreen()
        navigation.push(second)
        second.button.tap()

        let results = await app.delegate.waitForResults(count: 12)
        let taps = results.filter { $0.name == "detailButtonTapped" }
        #expect(taps == [
            .detailButtonTapped(path: "/master/tableView/cell/detail/button", row: 0, title: "Fruit"),
            .detailButtonTapped(path: "/master/tableView/cell/detail/button", row: 2, title: "Cheese"),
        ])
    }

    @Test func rowsLeavingTheScreenReportTheirTimeOnScreen() async throws {
        let app = App()
        let master = MasterScreen()
        app.application.window.show(HeadlessNavigationController(root: master))
        master.table.display(rows: ["Fruit", "Bread"])
        app.clock.advance(by: 2.5)
        master.table.endDisplayingRow(0)

        let results = await app.delegate.waitForResults(count: 1)
        #expect(results == [.rowViewed(row: 0, list: "tableView", seconds: 2.5)])
    }

    @Test func theSnapshotShowsNodesTasksAndRecentEvents() async throws {
        let app = App()
        var lines: [String] = []
        let master = MasterScreen()
        app.application.window.show(HeadlessNavigationController(root: master))
        master.table.display(rows: ["Fruit"])
        master.table.select(row: 0)
        let snapshot = app.manager.snapshot()
        lines = snapshot.split(separator: "\n").map(String.init)

        #expect(lines.first?.hasPrefix("<__root__ id=\"0\" class=\"ana-node\" createdAt=\"1767225600000\">") == true)
        #expect(lines.contains { $0.hasPrefix("  <master id=") })
        #expect(lines.contains { $0.hasPrefix("    <tableView id=") })
        #expect(lines.contains { $0.hasPrefix("      <cell id=") && $0.hasSuffix("index=\"0\" section=\"0\">") })
        let cell = try #require(lines.firstIndex { $0.hasPrefix("      <cell id=") })
        #expect(Array(lines[(cell + 1)...(cell + 7)]) == [
            "        <match>",
            "          <branches length=\"3\">",
            "            <did-select />",
            "            <disappeared />",
            "            <did-preview />",
            "          </branches>",
            "        </match>",
        ])
        #expect(lines.contains("        <ana-updated key-path=\"text\" value=\"Fruit\" class=\"ana-event\" time=\"1767225600000\" />"))
        #expect(lines.contains("        <ana-did-select class=\"ana-event\" time=\"1767225600000\" />"))
        #expect(lines.last == "</__root__>")
    }
}
