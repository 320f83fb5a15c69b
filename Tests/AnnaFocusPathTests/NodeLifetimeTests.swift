import Anna
import AnnaFocusPaths
import AnnaTesting
import Testing

/// Nodes do not grow without bound: an analyzer that goes away frees its node, and
/// rows a reused cell left are kept up to a bound.
@Suite(.timeLimit(.minutes(10))) struct NodeLifetimeTests {
    /// Nodes in the snapshot whose tag starts with `name`.
    static func count(_ name: String, in manager: Manager) -> Int {
        manager.snapshot().split(separator: "\n").filter { $0.drop { $0 == " " }.hasPrefix("<\(name) id=") }.count
    }

    @Test func anAnalyzerThatGoesAwayFreesItsNode() {
        let tree = PlainTree()
        var screen: Analyzer? = Analyzer(owner: nil)
        var button: Analyzer? = Analyzer(owner: nil)
        tree.root.setSubAnalyzer(screen!, for: "screen")
        screen!.setSubAnalyzer(button!, for: "button")
        button!.record(.targetAction)
        #expect(tree.manager.inspectNode(at: "/screen/button") { $0.path } == "/screen/button")

        button = nil
        #expect(tree.manager.inspectNode(at: "/screen/button") { $0.path } == nil)
        #expect(tree.manager.inspectNode(at: "/screen") { $0.path } == "/screen")
        screen = nil
        #expect(tree.manager.inspectNode(at: "/screen") { $0.path } == nil)
        #expect(Self.count("screen", in: tree.manager) == 0)
    }

    @Test func aNodeAnotherAnalyzerTookOverStays() {
        let tree = PlainTree()
        var first: Analyzer? = tree.analyzer("screen")
        first!.record(.appeared)
        let second = tree.analyzer("screen")
        first!.detach()          // frees the node; the second analyzer gets a new one
        second.record(.appeared)
        first = nil
        #expect(tree.manager.inspectNode(at: "/screen") { $0.isVisible() } == true)
    }

    @Test func scrollingThroughManyRowsWithReusedCellsKeepsTheNodeCountBounded() {
        let tree = PlainTree()
        let table = tree.analyzer("tableView")
        let cells = (0..<12).map { _ in Analyzer(owner: nil) }
        for row in 0..<10_000 {
            let cell = cells[row % cells.count]
            table.setSubAnalyzer(cell, for: "cell", index: row, section: 0)
            cell.record(.appeared)
            cell.update(row, for: "row")
        }
        let cellNodes = Self.count("cell", in: tree.manager)
        #expect(cellNodes <= 256 + cells.count)
        #expect(cellNodes >= 256)
        // Rows left recently keep their values; the oldest were freed.
        #expect(tree.manager.inspectNode(at: "/tableView/cell", index: 9_900, section: 0) { $0.latestValue("row") } == .int(9_900))
        #expect(tree.manager.inspectNode(at: "/tableView/cell", index: 0, section: 0) { _ in true } == nil)
        // A freed row that scrolls back gets a fresh node.
        cells[0].record(.appeared)
        table.setSubAnalyzer(cells[0], for: "cell", index: 0, section: 0)
        cells[0].record(.appeared)
        #expect(tree.manager.inspectNode(at: "/tableView/cell", index: 0, section: 0) { $0.latestValue("row") } == .some(nil))
    }
}
