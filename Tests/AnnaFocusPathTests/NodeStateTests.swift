import Anna
import AnnaFocusPaths
import AnnaTesting
import Foundation
import Testing

/// What a node keeps, now that it keeps it small: the latest event inline, the rest
/// in one box made on demand, rows in a table of their own.
@Suite(.timeLimit(.minutes(10))) struct NodeStateTests {
    @Test func theFirstAppearanceSurvivesDisappearingAndAppearingAgain() {
        let clock = TestClock()
        let manager = Manager(service: nil, clock: clock.now)
        let root = RootAnalyzer(manager: manager)
        let screen = Analyzer(owner: nil)
        root.setSubAnalyzer(screen, for: "screen")
        let first = clock.now()
        screen.record(.appeared)
        clock.advance(by: 5)
        screen.record(.disappeared)
        clock.advance(by: 5)
        let second = clock.now()
        screen.record(.appeared)
        clock.advance(by: 2)
        screen.record(.didEndTouch)

        manager.inspectNode(at: "/screen") { node in
            #expect(node.firstDisplayedEvent() == FocusEvent(name: .appeared, time: first))
            #expect(node.isVisible())
            // Visible again since `second`, up to the latest event two seconds later.
            #expect(node.visibleDuration == 2)
            #expect(node.recentEvents().map(\.name) == [.appeared, .disappeared, .appeared, .didEndTouch])
            #expect(node.recentEvents()[2].time == second)
        }
    }

    @Test func theTenLatestEventsAreKeptInOrder() {
        let clock = TestClock()
        let manager = Manager(service: nil, clock: clock.now)
        let root = RootAnalyzer(manager: manager)
        let field = Analyzer(owner: nil)
        root.setSubAnalyzer(field, for: "field")
        for value in 0..<25 {
            field.update(value, for: "count")
            clock.advance(by: 1)
        }
        manager.inspectNode(at: "/field") { node in
            let events = node.recentEvents()
            #expect(events.count == 10)
            #expect(events.map(\.value) == (15..<25).map { AnalyticsValue.int($0) })
            #expect(events.allSatisfy { $0.keyPath == "count" && $0.name == .updated })
            #expect(node.latestEvent() == events.last)
            #expect(node.latestValue("count") == .int(24))
        }
    }

    @Test func anUpdateEventKeepsItsKeyPathAndValueThroughCopiesAndChanges() {
        let time = Date(timeIntervalSince1970: 100)
        var event = FocusEvent(name: .updated, time: time, keyPath: "price", value: .double(9.5))
        let copy = event
        event.value = .double(10)
        #expect(copy.value == .double(9.5))
        #expect(event.keyPath == "price" && event.value == .double(10))
        event.keyPath = nil
        event.value = nil
        #expect(event == FocusEvent(name: .updated, time: time))
        #expect(Set([copy, copy, event]).count == 2)
        #expect(FocusEvent(name: .appeared, time: time).keyPath == nil)
    }

    @Test func keyedAndIndexedChildrenOfOneNameAreReloadedTogether() {
        let tree = PlainTree()
        let table = tree.analyzer("tableView")
        let header = Analyzer(owner: nil)
        let rows = (0..<3).map { _ in Analyzer(owner: nil) }
        let other = Analyzer(owner: nil)
        table.setSubAnalyzer(header, for: "cell")
        for (row, cell) in rows.enumerated() { table.setSubAnalyzer(cell, for: "cell", index: row, section: 1) }
        table.setSubAnalyzer(other, for: "footer")
        for analyzer in [header, other] + rows { analyzer.record(.appeared) }
        #expect(tree.manager.inspectNode(at: "/tableView/cell", index: 2, section: 1) { $0.section } == 1)
        #expect(tree.manager.inspectNode(at: "/tableView/cell", index: 2) { _ in true } == nil)

        table.reloadSubAnalyzers(for: "cell")
        #expect(tree.manager.inspectNode(at: "/tableView/cell") { _ in true } == nil)
        #expect(tree.manager.inspectNode(at: "/tableView/cell", index: 0, section: 1) { _ in true } == nil)
        #expect(tree.manager.inspectNode(at: "/tableView/footer") { $0.isVisible() } == true)
        rows[1].record(.didSelect)
        #expect(tree.manager.inspectNode(at: "/tableView/cell", index: 1, section: 1) { $0.recentEvents().map(\.name) } == [.didSelect])
    }

    @Test func sparkEventsShowInTheSnapshotUntilTheirAnalyzerGoesAway() {
        let tree = PlainTree()
        var button: Analyzer? = tree.analyzer("button")
        button!.attach(SparkEvent(trigger: .targetAction, trace: "buy tapped") { _ in })
        button!.record(.targetAction)
        let other = tree.analyzer("label")
        other.record(.appeared)
        let snapshot = tree.manager.snapshot()
        #expect(snapshot.contains("<ana-spark trigger=\"targetAction\" trace=\"buy tapped\" class=\"ana-spark\" />"))
        #expect(snapshot.components(separatedBy: "ana-spark ").count == 2)
        button = nil
        #expect(!tree.manager.snapshot().contains("ana-spark"))
    }
}
