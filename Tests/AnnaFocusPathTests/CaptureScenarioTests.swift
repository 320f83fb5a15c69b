@_spi(Capture) import AnnaFocusPaths
@_spi(Capture) import AnnaTesting
import Foundation
import Testing

/// A screen exposing its grid through `subAnalyzableKeys`, as the seed's
/// `MasterViewController` exposes `tableView`.
final class PhotosScreen: HeadlessScreen, AnalyzableObject {
    static let subAnalyzableKeys: Set<String> = ["grid", "search"]
    let grid = HeadlessCollectionView(columns: 3)
    lazy var search = HeadlessTextField()

    override func viewDidLoad() {
        view.addSubview(grid)
        view.addSubview(search)
        analyzer.enable(naming: "photos")
    }
}

/// A form with two text fields, named by their keys.
final class FormScreen: HeadlessScreen, AnalyzableObject {
    static let subAnalyzableKeys: Set<String> = ["name", "email"]
    let name = HeadlessTextField()
    let email = HeadlessTextField()

    override func viewDidLoad() {
        view.addSubview(name)
        view.addSubview(email)
        analyzer.enable(naming: "form")
    }
}

/// Every capture rule, driven through the headless tree that shares the capture core
/// with the UIKit hooks and SwiftUI modifiers: each scenario asserts the focus path and
/// what a task reports.
@Suite(.timeLimit(.minutes(10))) struct CaptureScenarioTests {
    typealias Seen = ScenarioTests

    /// Reports `seen` for every event matching one of `patterns`.
    static func trace(_ manager: Manager, _ patterns: String...) {
        for pattern in patterns { Seen.trace(manager, pattern) }
    }

    /// Reports `under` with the parent node's path, index and section for `pattern`.
    static func traceParent(_ manager: Manager, _ pattern: String) {
        manager.match(pattern) { node in
            var parameters: [String: AnalyticsValue] = ["path": .string(node.parentNode?.path ?? "")]
            if let index = node.parentNode?.index { parameters["index"] = .int(index) }
            if let section = node.parentNode?.section { parameters["section"] = .int(section) }
            return AnalyticsEvent(name: "under", parameters: parameters)
        }
    }

    @Test func tableCellsAppearOnWillDisplayAndDisappearOnEndDisplayingWithIndexAndSection() async {
        let app = App(tasks: [])
        Self.trace(app.manager, "cell/appeared", "cell/disappeared", "cell/did-select")
        let master = MasterScreen()
        app.application.window.show(master)
        master.table.reloadData([["a"], ["b", "c"]])
        master.table.displayRow(0, section: 0)
        master.table.displayRow(1, section: 1)
        master.table.select(row: 1, section: 1)
        master.table.endDisplayingRow(0, section: 0)
        master.table.select(row: 0, section: 0)          // no longer displayed: nothing

        let results = await app.delegate.waitForResults(count: 4)
        #expect(results == [
            Seen.seen("/master/tableView/cell", "appeared", index: 0, section: 0),
            Seen.seen("/master/tableView/cell", "appeared", index: 1, section: 1),
            Seen.seen("/master/tableView/cell", "did-select", index: 1, section: 1),
            Seen.seen("/master/tableView/cell", "disappeared", index: 0, section: 0),
        ])
        await app.delegate.drain()
        #expect(app.delegate.results.count == 4)
        #expect(master.table.visibleCells[IndexPair(section: 1, row: 1)]?.analyzer.path == "/master/tableView/cell")
    }

    @Test func aGridExposedBySubAnalyzableKeysReportsItemsAndLeadsAPushedScreen() async {
        let app = App(tasks: [])
        Self.trace(app.manager, "grid/cell/did-select")
        Self.traceParent(app.manager, "grid/cell/detail/appeared")
        let photos = PhotosScreen()
        let navigation = HeadlessNavigationController(root: photos)
        app.application.window.show(navigation)
        #expect(photos.grid.analyzer.path == "/photos/grid")     // from subAnalyzableKeys
        photos.grid.display(sections: [["a", "b", "c", "d"], ["e"]])
        #expect(photos.grid.place(ofItemAt: 3) == (row: 1, column: 0))
        photos.grid.select(item: 3, section: 0)
        photos.grid.select(item: 0, section: 1)
        let detail = NamedScreen("detail")
        navigation.push(detail)

        let results = await app.delegate.waitForResults(count: 3)
        #expect(results == [
            Seen.seen("/photos/grid/cell", "did-select", index: 3, section: 0),
            Seen.seen("/photos/grid/cell", "did-select", index: 0, section: 1),
            AnalyticsEvent(name: "under", parameters: ["path": "/photos/grid/cell", "index": 0, "section": 1]),
        ])
        // The detail is under the last selected item.
        #expect(detail.analyzer.path == "/photos/grid/cell/detail")
        #expect(app.manager.snapshot().contains("detail"))
        #expect(Manager.Probe(app.manager).isVisible("/photos/grid/cell", index: 0, section: 1) == false)  // the push hid it
    }

    @Test func aNavigationPushLandsUnderTheSelectedRowAndPoppingReappearsTheMaster() async {
        let app = App(tasks: [])
        Self.trace(app.manager, "appeared", "disappeared", "button/target-action")
        let master = MasterScreen()
        let navigation = HeadlessNavigationController(root: master)
        app.application.window.show(navigation)
        master.table.reloadData([["a", "b"]])
        master.table.displayRow(1)
        master.table.select(row: 1)
        let detail = DetailScreen()
        navigation.push(detail)
        detail.button.tap()
        navigation.pop()

        let results = await app.delegate.waitForResults(count: 17)
        #expect(results == [
            Seen.seen("/master", "appeared"),
            Seen.seen("/master/tableView", "appeared"),
            Seen.seen("/master/compose", "appeared"),
            Seen.seen("/master/tableView/cell", "appeared", index: 1, section: 0),
            Seen.seen("/master/tableView/cell", "disappeared", index: 1, section: 0),  // the push hides the master
            Seen.seen("/master/tableView", "disappeared"),
            Seen.seen("/master/compose", "disappeared"),
            Seen.seen("/master", "disappeared"),
            Seen.seen("/master/tableView/cell/detail", "appeared"),
            Seen.seen("/master/tableView/cell/detail/button", "appeared"),
            Seen.seen("/master/tableView/cell/detail/button", "target-action"),
            Seen.seen("/master/tableView/cell/detail/button", "disappeared"),
            Seen.seen("/master/tableView/cell/detail", "disappeared"),
            Seen.seen("/master", "appeared"),                  // the pop shows it again
            Seen.seen("/master/tableView", "appeared"),
            Seen.seen("/master/tableView/cell", "appeared", index: 1, section: 0),
            Seen.seen("/master/compose", "appeared"),
        ])
        #expect(detail.button.analyzer.path == "/master/tableView/cell/detail/button")
    }

    @Test func aModalPresentedAfterATapLandsUnderTheButtonAndDisappearsOnDismiss() async {
        let app = App(tasks: [])
        Self.trace(app.manager, "sheet/appeared", "sheet/disappeared", "compose/target-action", "compose/did-end-touch")
        let master = MasterScreen()
        app.application.window.show(master)
        master.composeButton.tap()
        let sheet = NamedScreen("sheet")
        master.present(sheet)
        master.dismissPresented()

        let results = await app.delegate.waitForResults(count: 4)
        #expect(results == [
            Seen.seen("/master/compose", "target-action"),
            Seen.seen("/master/compose", "did-end-touch"),
            Seen.seen("/master/compose/sheet", "appeared"),
            Seen.seen("/master/compose/sheet", "disappeared"),
        ])
        #expect(sheet.analyzer.path == "/master/compose/sheet")
    }

    @Test func aTabSwitchMakesOneTabDisappearAndTheOtherAppear() async {
        let app = App(tasks: [])
        Self.trace(app.manager, "appeared", "disappeared")
        let feed = NamedScreen("feed")
        let profile = NamedScreen("profile")
        let tabs = HeadlessTabBarController(tabs: [feed, profile])
        app.application.window.show(tabs)
        tabs.select(1)
        tabs.select(1)                                    // already selected: nothing
        tabs.select(0)

        let results = await app.delegate.waitForResults(count: 5)
        #expect(results == [
            Seen.seen("/feed", "appeared"),
            Seen.seen("/feed", "disappeared"),
            Seen.seen("/profile", "appeared"),
            Seen.seen("/profile", "disappeared"),
            Seen.seen("/feed", "appeared"),
        ])
        await app.delegate.drain()
        #expect(app.delegate.results.count == 5)
    }

    @Test func aButtonAppearsOnlyInAWindowUnhiddenOnAVisibleScreenAndItsTapFocusesIt() async {
        let app = App(tasks: [])
        Self.trace(app.manager, "buy/appeared", "buy/disappeared", "buy/target-action", "buy/did-end-touch")
        let screen = NamedScreen("product")
        let buy = HeadlessButton()
        buy.isHidden = true
        screen.view.addSubview(buy)
        screen.analyzer.setSubAnalyzer(buy.analyzer, for: "buy")
        #expect(!buy.facts.isInWindow)                   // not shown yet
        app.application.window.show(screen)
        #expect(buy.facts == ViewFacts(isInWindow: true, isHidden: true, isScreenVisible: true))
        #expect(!buy.isVisible)                          // hidden: not appeared
        buy.isHidden = false                             // appears
        buy.tap()
        buy.isHidden = true                              // disappears
        let next = NamedScreen("receipt")
        screen.present(next)                             // lands under the tapped button

        let results = await app.delegate.waitForResults(count: 4)
        #expect(results == [
            Seen.seen("/product/buy", "appeared"),
            Seen.seen("/product/buy", "target-action"),      // sent while the touch is dispatched
            Seen.seen("/product/buy", "did-end-touch"),      // after the window dispatched it
            Seen.seen("/product/buy", "disappeared"),
        ])
        #expect(next.analyzer.path == "/product/buy/receipt")
    }

    @Test func textFieldsRecordBecomingAndResigningTheFirstResponder() async {
        let app = App(tasks: [])
        Self.trace(app.manager, "did-become-first-responder", "did-resign-first-responder")
        let form = FormScreen()
        app.application.window.show(form)
        form.name.becomeFirstResponder()
        form.name.becomeFirstResponder()                 // already: nothing
        form.email.becomeFirstResponder()                // name resigns first
        #expect(form.email.isFirstResponder && !form.name.isFirstResponder)
        form.name.resignFirstResponder()                 // not first: nothing
        form.email.resignFirstResponder()

        let results = await app.delegate.waitForResults(count: 4)
        #expect(results == [
            Seen.seen("/form/name", "did-become-first-responder"),
            Seen.seen("/form/name", "did-resign-first-responder"),
            Seen.seen("/form/email", "did-become-first-responder"),
            Seen.seen("/form/email", "did-resign-first-responder"),
        ])
        await app.delegate.drain()
        #expect(app.delegate.results.count == 4)
    }

    @Test func scrollingRecordsDidBeginScrollAndFiresItsSparkEvent() async {
        let app = App(tasks: [])
        Self.trace(app.manager, "tableView/did-begin-scroll")
        let log = SparkLog()
        let master = MasterScreen()
        master.table.analyzer.attach(SparkEvent(trigger: .didBeginScroll, trace: "scroll") { context in
            log.append("scroll \(context.path)")
        })
        app.application.window.show(master)
        master.table.beginScrolling()

        let results = await app.delegate.waitForResults(count: 1)
        #expect(results == [Seen.seen("/master/tableView", "did-begin-scroll")])
        await app.delegate.drain()
        #expect(log.all == ["scroll /master/tableView"])
    }

    @Test func scrollingAThousandRowsThroughTenReusedCellsReportsEveryRowOnce() async {
        let app = App(tasks: [])
        app.manager.match("tableView/cell/disappeared") { node in
            AnalyticsEvent(name: "rowLeft", parameters: ["row": .int(try node.requiredIndex())])
        }
        let master = MasterScreen()
        app.application.window.show(master)
        master.table.reloadData([(0..<1_000).map { "row \($0)" }])
        for row in 0..<1_000 {
            master.table.displayRow(row)
            if row >= 10 { master.table.endDisplayingRow(row - 10) }
        }
        #expect(master.table.createdCellCount == 11)
        let results = await app.delegate.waitForResults(count: 990)
        #expect(results.map { $0.parameters["row"] } == (0..<990).map { AnalyticsValue.int($0) })
    }

    @Test func objectsNobodyNamedRecordNothingAndQueueNothing() async {
        let app = App(tasks: [])
        Self.trace(app.manager, "appeared", "did-select", "target-action")
        let screen = HeadlessScreen()                    // no name
        let button = HeadlessButton()
        screen.view.addSubview(button)
        app.application.window.show(screen)
        button.tap()
        screen.analyzer.enable(naming: "late")           // named later: nothing was queued
        screen.analyzer.record("ping")
        await app.delegate.drain()
        #expect(app.delegate.results.isEmpty)
        #expect(screen.analyzer.path == "/late")
    }
}

/// The SwiftUI modifiers' core: scopes handed down the environment, driven here as the
/// modifiers drive them.
@Suite(.timeLimit(.minutes(10))) struct AnalyzerScopeTests {
    typealias Seen = ScenarioTests

    @Test func forEachRowsGetIndexesAndAPushLandsUnderTheTappedRow() async {
        let app = App(tasks: [])
        CaptureScenarioTests.trace(app.manager, "appeared", "did-select", "target-action")
        CaptureScenarioTests.traceParent(app.manager, "row/detail/appeared")
        let root = AnalyzerScope.root(app.manager)
        let list = AnalyzerScope(name: "products", parent: root)
        list.appeared()
        let rows = (0..<3).map { AnalyzerScope(name: "row", parent: list, index: $0) }
        for row in rows { row.appeared() }
        rows[2].tapped()
        let detail = AnalyzerScope(name: "detail", parent: list, placement: .pushed)
        detail.appeared()
        let addToCart = AnalyzerScope(name: "addToCart", parent: detail)
        addToCart.tapped()

        let results = await app.delegate.waitForResults(count: 8)
        #expect(results == [
            Seen.seen("/products", "appeared"),
            Seen.seen("/products/row", "appeared", index: 0),
            Seen.seen("/products/row", "appeared", index: 1),
            Seen.seen("/products/row", "appeared", index: 2),
            Seen.seen("/products/row", "target-action", index: 2),
            Seen.seen("/products/row/detail", "appeared"),
            AnalyticsEvent(name: "under", parameters: ["path": "/products/row", "index": 2]),
            Seen.seen("/products/row/detail/addToCart", "target-action"),
        ])
    }

    @Test func aSelectionInASectionedListLeadsAPushedScreen() async {
        let app = App(tasks: [])
        CaptureScenarioTests.trace(app.manager, "did-select", "disappeared")
        let root = AnalyzerScope.root(app.manager)
        let settings = AnalyzerScope(name: "settings", parent: root)
        let row = AnalyzerScope(name: "option", parent: settings, index: 1, section: 2)
        row.appeared()
        row.selected()
        let page = AnalyzerScope(name: "page", parent: settings, placement: .pushed)
        page.appeared()
        page.disappeared()

        let results = await app.delegate.waitForResults(count: 2)
        #expect(results == [
            Seen.seen("/settings/option", "did-select", index: 1, section: 2),
            Seen.seen("/settings/option/page", "disappeared"),
        ])
    }

    @Test func aViewKeepsItsScopeUntilItsPlaceChanges() {
        let app = App(tasks: [])
        let root = AnalyzerScope.root(app.manager)
        let list = AnalyzerScope(name: "list", parent: root)
        let row = AnalyzerScope.reusing(nil, name: "row", parent: list, index: 1)
        #expect(AnalyzerScope.reusing(row, name: "row", parent: list, index: 1) === row)
        let moved = AnalyzerScope.reusing(row, name: "row", parent: list, index: 2)
        #expect(moved !== row)
        #expect(AnalyzerScope.reusing(moved, name: "row", parent: root, index: 2) !== moved)
        #expect(AnalyzerScope.reusing(moved, name: "row", parent: list, index: 2, placement: .pushed) !== moved)
        moved.appeared()
        #expect(moved.analyzer.path == "/list/row")
    }

    @Test func aPushedScopeWithNothingFocusedLandsUnderItsParent() {
        let app = App(tasks: [])
        let root = AnalyzerScope.root(app.manager)
        let home = AnalyzerScope(name: "home", parent: root)
        let pushed = AnalyzerScope(name: "about", parent: home, placement: .pushed)
        pushed.appeared()
        #expect(pushed.analyzer.path == "/home/about")
        #expect(home.analyzer.path == "/home")
    }
}

/// The capture core's small values.
struct CaptureValueTests {
    @Test func aViewAppearsOnlyInAWindowUnhiddenOnAVisibleScreen() {
        #expect(ViewFacts(isInWindow: true, isHidden: false, isScreenVisible: true).isAppeared)
        #expect(!ViewFacts(isInWindow: false, isHidden: false, isScreenVisible: true).isAppeared)
        #expect(!ViewFacts(isInWindow: true, isHidden: true, isScreenVisible: true).isAppeared)
        #expect(!ViewFacts(isInWindow: true, isHidden: false, isScreenVisible: false).isAppeared)
    }

    @Test func visibilityReportsOnlyChanges() {
        var visibility = ViewVisibility()
        let shown = ViewFacts(isInWindow: true, isHidden: false, isScreenVisible: true)
        let hidden = ViewFacts(isInWindow: true, isHidden: true, isScreenVisible: true)
        #expect(visibility.update(hidden) == nil)
        #expect(visibility.update(shown) == .appeared)
        #expect(visibility.update(shown) == nil)
        #expect(visibility.update(hidden) == .disappeared)
        #expect(!visibility.isAppeared)
    }

    /// Hooks are installed once and never removed: turning capture off is a flag the
    /// hooks check. (Exchanging implementations back corrupts the chain when another
    /// SDK hooked the same methods after Anna.)
    @Test func theSwitchInstallsOnceAndTurningOffIsAFlag() {
        var captureSwitch = CaptureSwitch()
        captureSwitch.turnOff()
        #expect(!captureSwitch.isOn && !captureSwitch.areHooksInstalled)
        #expect(captureSwitch.turnOn() == true)            // install now
        #expect(captureSwitch.turnOn() == false)
        captureSwitch.turnOff()
        #expect(!captureSwitch.isOn && captureSwitch.areHooksInstalled)
        #expect(captureSwitch.turnOn() == false)           // still installed: nothing to do
        #expect(captureSwitch.isOn)
    }

    @Test func subAnalyzableKeysFindStoredAndLazyProperties() {
        let photos = PhotosScreen()
        #expect(photos.subAnalyzable(forKey: "grid") === photos.grid)
        #expect(photos.subAnalyzable(forKey: "search") == nil)          // lazy, not created yet
        let search = photos.search
        #expect(photos.subAnalyzable(forKey: "search") === search)
        #expect(photos.subAnalyzable(forKey: "missing") == nil)
    }
}
