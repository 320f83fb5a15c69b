@_spi(Generated) import Anna
@_spi(Generated) import AnnaFocusPaths
import AnnaTesting
import Foundation
import Observation
import Testing

/// Collects what Spark actions saw.
final class SparkLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []
    func append(_ entry: String) { lock.withLock { entries.append(entry) } }
    var all: [String] { lock.withLock { entries } }
}

/// SparkChamber's platform-neutral cases: triggers, single fire, several events on
/// one object, time on screen.
@Suite(.timeLimit(.minutes(10))) struct SparkTests {
    @Test func aSparkEventFiresOnItsTriggerOnly() async {
        let app = App(tasks: [])
        let log = SparkLog()
        let screen = NamedScreen("home")
        screen.analyzer.attach(SparkEvent(trigger: .didEndTouch, trace: "touch") { context in
            log.append("touch \(context.path)")
        })
        app.application.window.show(screen)            // appeared: wrong trigger, ignored
        screen.analyzer.record(.didBeginScroll)        // wrong trigger, ignored
        screen.analyzer.record(.didEndTouch)
        await app.delegate.drain()
        #expect(log.all == ["touch /home"])
    }

    @Test func aSingleFireEventFiresOnce() async {
        let app = App(tasks: [])
        let log = SparkLog()
        let screen = NamedScreen("home")
        screen.analyzer.attach(SparkEvent(trigger: .didAppear, isSingleFire: true) { _ in log.append("first view") })
        let navigation = HeadlessNavigationController(root: screen)
        app.application.window.show(navigation)
        navigation.push(NamedScreen("next"))
        navigation.pop()                                // home appears again
        await app.delegate.drain()
        #expect(log.all == ["first view"])
        #expect(screen.analyzer.attachedSparkEvents.map(\.trigger) == [SparkTrigger.none])
    }

    @Test func severalEventsOnOneObjectEachFire() async {
        let app = App(tasks: [])
        let log = SparkLog()
        let button = HeadlessButton()
        let screen = NamedScreen("home")
        screen.view.addSubview(button)
        button.analyzer.enable(naming: "buy")
        for trigger in [SparkTrigger.didAppear, .didEndTouch, .targetAction] {
            button.analyzer.attach(SparkEvent(trigger: trigger) { context in log.append("\(trigger) \(context.event.name)") })
        }
        app.application.window.show(screen)
        button.tap()
        await app.delegate.drain()
        #expect(log.all == ["didAppear appeared", "targetAction target-action", "didEndTouch did-end-touch"])
    }

    @Test func timeOnScreenFromAppearAndDisappear() async {
        let app = App(tasks: [])
        let log = SparkLog()
        let screen = NamedScreen("article")
        screen.analyzer.attach(SparkEvent(trigger: .didDisappear) { context in
            log.append("on screen \(context.visibleDuration)")
        })
        let navigation = HeadlessNavigationController(root: NamedScreen("list"))
        app.application.window.show(navigation)
        navigation.push(screen)
        app.clock.advance(by: 12.25)
        navigation.pop()
        await app.delegate.drain()
        #expect(log.all == ["on screen 12.25"])
    }

    @Test func removedAndDetachedEventsStopFiring() async {
        let app = App(tasks: [])
        let log = SparkLog()
        let screen = NamedScreen("home")
        let id = UUID()
        screen.analyzer.attach(SparkEvent(trigger: .didEndTouch, id: id) { _ in log.append("a") })
        screen.analyzer.attach(SparkEvent(trigger: .targetAction) { _ in log.append("b") })
        app.application.window.show(screen)
        screen.analyzer.removeSparkEvent(id: id)
        screen.analyzer.record(.didEndTouch)
        screen.analyzer.record(.targetAction)
        screen.analyzer.detach()
        screen.analyzer.record(.targetAction)
        await app.delegate.drain()
        #expect(log.all == ["b"])
    }
}

/// Node state the seed README documents: visibility, first display, values.
@Suite(.timeLimit(.minutes(10))) struct NodeTests {
    @Test func valuesFirstDisplayedByAppearingOrByUpdatingWhileVisible() async {
        let app = App(tasks: [])
        let screen = NamedScreen("product")
        screen.analyzer.enable(naming: "product")
        app.application.window.show(HeadlessNavigationController(root: NamedScreen("list")))
        let navigation = app.application.window.rootScreen as! HeadlessNavigationController
        screen.analyzer.update("Tea", for: "title")       // not on screen yet (pending)
        navigation.push(screen)                           // appears: title first displayed by it
        app.clock.advance(by: 1)
        screen.analyzer.update(9.5, for: "price")         // displayed by this update
        screen.analyzer.update(9.5, for: "price")         // same value: still the first update
        let probe = Manager.Probe(app.manager)
        let state = app.manager.inspectNode(at: "/list/product") { node in
            (node.valueFirstDisplayedEvent("title")?.name, node.valueFirstDisplayedEvent("price")?.name,
             node.valueFirstDisplayedEvent("price")?.time, node.firstDisplayedEvent()?.name, node.isVisible(),
             node.latestValue("price"), node.ancestor(1)?.nodeName, node.ancestor(0)?.nodeName, node.ancestor(3)?.nodeName)
        }
        #expect(state?.0 == .appeared)
        #expect(state?.1 == .updated)
        #expect(state?.2 == Date(timeIntervalSince1970: 1_767_225_601))
        #expect(state?.3 == .appeared)
        #expect(state?.4 == true)
        #expect(state?.5 == .double(9.5))
        #expect(state?.6 == "list")
        #expect(state?.7 == "product")
        #expect(state?.8 == nil)
        navigation.pop()
        #expect(probe.isVisible("/list/product", index: nil, section: nil) == false)
    }

    @Test func nodesKeepTheirTenLatestEvents() {
        let app = App(tasks: [])
        let screen = NamedScreen("feed")
        app.application.window.show(screen)
        for position in 0..<25 { screen.analyzer.record(FocusEvent.Name(rawValue: "e\(position)")) }
        let names = app.manager.inspectNode(at: "/feed") { $0.recentEvents().map(\.name.rawValue) }
        #expect(names == (15..<25).map { "e\($0)" })
    }
}

/// `observe(_:for:named:)` with `@Observable` models.
@MainActor @Suite(.timeLimit(.minutes(10))) struct ObservationTests {
    @Observable final class Cart {
        var itemCount = 0
        var coupon: String?
    }

    @Test func observedChangesAreRecordedOncePerChange() async {
        let app = App(tasks: [])
        app.manager.match("cart/updated") { node in
            let event = try node.requiredLatestEvent()
            return AnalyticsEvent(name: "cartChanged", parameters: [event.keyPath ?? "?": event.value ?? .string("nil")])
        }
        let cart = Cart()
        let screen = NamedScreen("cart")
        app.application.window.show(screen)
        screen.analyzer.observe(cart, for: \.itemCount, named: "itemCount")
        screen.analyzer.observe(cart, for: \.coupon, named: "coupon")
        cart.itemCount = 2
        await Task.yield()
        cart.itemCount = 2                               // no change: nothing recorded
        await Task.yield()
        cart.coupon = "SPRING"
        let results = await app.delegate.waitForResults(count: 4)
        #expect(results == [
            AnalyticsEvent(name: "cartChanged", parameters: ["itemCount": 0]),
            AnalyticsEvent(name: "cartChanged", parameters: ["coupon": "nil"]),
            AnalyticsEvent(name: "cartChanged", parameters: ["itemCount": 2]),
            AnalyticsEvent(name: "cartChanged", parameters: ["coupon": "SPRING"]),
        ])
        screen.analyzer.detach()
        cart.itemCount = 3
        await Task.yield()
        await app.delegate.drain()
        #expect(app.delegate.results.count == 4)
    }
}

/// Patterns: relative, anchored, `*`, `**`, and their errors.
@Suite struct FocusPatternTests {
    @Test(arguments: [
        ("cell/did-select", ["master", "tableView", "cell"], true),
        ("cell/did-select", ["cell", "detail"], false),
        ("master/tableView/cell/did-select", ["master", "tableView", "cell"], true),
        ("/tableView/cell/did-select", ["master", "tableView", "cell"], false),
        ("/master/tableView/cell/did-select", ["master", "tableView", "cell"], true),
        ("/master/*/cell/x", ["master", "tableView", "cell"], true),
        ("/master/*/cell/x", ["master", "cell"], false),
        ("/master/**/cell/x", ["master", "cell"], true),
        ("/master/**/cell/x", ["master", "a", "b", "cell"], true),
        ("/master/**/x", ["master", "a", "b", "cell"], true),
        ("/**/x", [], true),
        ("/x", [], true),
        ("/x", ["a"], false),
        ("x", ["a", "b"], true),
        ("*/x", [], false),
        ("a/**/b/**/c/x", ["z", "a", "b", "q", "c"], true),
        ("a/**/b/**/c/x", ["z", "a", "c", "b"], false),
    ])
    func matches(_ pattern: String, _ names: [String], _ expected: Bool) throws {
        #expect(try FocusPattern(pattern).matches(names: names) == expected)
    }

    @Test func invalidPatternsSayWhatToDo() {
        #expect(throws: FocusPattern.SyntaxError(message: "match 'a//b' has an empty component; remove the extra '/'")) { try FocusPattern("a//b") }
        #expect(throws: FocusPattern.SyntaxError(message: "match 'a/**' must end with the event it waits for, e.g. cell/did-select")) { try FocusPattern("a/**") }
        #expect(throws: FocusPattern.SyntaxError(message: "match 'a b/x' has the component 'a b'; components are names of letters, digits, '_', '-' and '.', or * and **")) { try FocusPattern("a b/x") }
    }
}
