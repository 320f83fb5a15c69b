@_spi(Generated) import Anna
@_spi(Generated) import AnnaFocusPaths
import AnnaTesting
import Testing

/// A screen with a table whose delegate the test chooses, named "list".
final class DelegatedListScreen: HeadlessScreen {
    let table = HeadlessTable()

    override func viewDidLoad() {
        view.addSubview(table)
        analyzer.setSubAnalyzer(table.analyzer, for: "tableView")
        analyzer.enable(naming: "list")
    }
}

/// What the app's own delegate implementations saw, in order.
final class CallLog: @unchecked Sendable {
    // Written and read on the test's thread only.
    var calls: [String] = []
}

/// Automatic capture must never change what the app's own code receives, and must
/// record each fact once: the rules of ``Anna/DelegateHooks``,
/// ``Anna/ControlActionRule``, ``Anna/ScreenPresentations`` and the first-responder
/// rule, shared by AnnaUIKit's hooks and the headless tree.
@Suite(.timeLimit(.minutes(10))) struct CaptureSafetyTests {
    typealias Seen = ScenarioTests

    // MARK: Delegates

    @Test func aForwardingDelegateStillForwardsEveryCallbackTheAppImplements() async {
        let app = App(tasks: [])
        Seen.trace(app.manager, "cell/did-select")
        let log = CallLog()
        // The app's delegate implements selection; the proxy in front of it (RxCocoa's
        // DelegateProxy, WebKit's forwarders) implements nothing and forwards.
        let appDelegateClass = HeadlessDelegateClass(name: "AppDelegate", methods: [
            .didSelect: { _, call in log.calls.append("app didSelect \(call.place.row)") },
        ])
        let proxyClass = HeadlessDelegateClass(name: "DelegateProxy")
        let appDelegate = HeadlessDelegate(of: appDelegateClass)
        let proxy = HeadlessDelegate(of: proxyClass, forwardingTo: appDelegate)
        let screen = DelegatedListScreen()
        app.application.window.show(screen)
        screen.table.delegate = proxy
        screen.table.display(rows: ["a", "b"])
        screen.table.select(row: 1)

        // Nothing was added to the proxy's class: it still forwards, and the app's
        // implementation ran once.
        #expect(!HeadlessDelegate(of: proxyClass).responds(to: .didSelect))
        #expect(log.calls == ["app didSelect 1"])
        // Selection is still captured, through the implementation the proxy forwards to.
        let results = await app.delegate.waitForResults(count: 1)
        #expect(results == [Seen.seen("/list/tableView/cell", "did-select", index: 1, section: 0)])
    }

    @Test func aCallbackTheDelegateDoesNotImplementIsNeitherAddedNorCaptured() async {
        let app = App(tasks: [])
        CaptureScenarioTests.trace(app.manager, "cell/appeared", "cell/did-select")
        let log = CallLog()
        let selectsOnly = HeadlessDelegateClass(name: "SelectsOnly", methods: [
            .didSelect: { _, _ in log.calls.append("didSelect") },
        ])
        let delegate = HeadlessDelegate(of: selectsOnly)
        let screen = DelegatedListScreen()
        app.application.window.show(screen)
        screen.table.delegate = delegate
        screen.table.display(rows: ["a"])
        screen.table.select(row: 0)

        #expect(!delegate.responds(to: .willDisplay))       // what UIKit asks: unchanged
        #expect(log.calls == ["didSelect"])
        let results = await app.delegate.waitForResults(count: 1)
        #expect(results == [Seen.seen("/list/tableView/cell", "did-select", index: 0, section: 0)])
        await app.delegate.drain()
        #expect(app.delegate.results.count == 1)            // no appearance: willDisplay is not implemented
    }

    @Test func aSubclassThatCallsSuperRecordsOnceAndBothImplementationsRun() async {
        let app = App(tasks: [])
        Seen.trace(app.manager, "cell/did-select")
        let log = CallLog()
        let base = HeadlessDelegateClass(name: "BaseDelegate", methods: [
            .willDisplay: { _, _ in },
            .didSelect: { _, call in log.calls.append("base \(call.place.row)") },
        ])
        let sub = HeadlessDelegateClass(name: "SubDelegate", superclass: base)
        sub.define(.didSelect) { [unowned sub] object, call in
            sub.callSuper(.didSelect, on: object, call)          // super.tableView(_:didSelectRowAt:)
            log.calls.append("sub \(call.place.row)")
        }
        // Both classes get hooked: a Base object delegates one table, a Sub object another.
        let first = DelegatedListScreen()
        let second = DelegatedListScreen()
        let navigation = HeadlessNavigationController(root: first)
        app.application.window.show(navigation)
        first.table.delegate = HeadlessDelegate(of: base)
        second.table.delegate = HeadlessDelegate(of: sub)
        navigation.push(second)
        second.table.display(rows: ["a", "b", "c"])
        second.table.select(row: 2)

        #expect(log.calls == ["base 2", "sub 2"])
        let results = await app.delegate.waitForResults(count: 1)
        #expect(results.count == 1)
        await app.delegate.drain()
        #expect(app.delegate.results.count == 1)            // one selection, one record
    }

    @Test func delegateHooksWrapAClassOnceWhereItsImplementationIsDefined() {
        final class Runtime: DelegateHookRuntime {
            var methods: [String: [String: Int]] = ["Base": ["select": 1], "Sub": [:], "Forwarder": [:]]
            let superclasses = ["Sub": "Base"]
            func superclass(of type: String) -> String? { superclasses[type] }
            func ownImplementation(of selector: String, in type: String) -> Int? { methods[type]?[selector] }
            func replaceOwnImplementation(of selector: String, in type: String, with implementation: Int) {
                methods[type]?[selector] = implementation
            }
        }
        let runtime = Runtime()
        var hooks = DelegateHooks<Runtime>()
        let r1 = hooks.hook("select", for: "Sub", in: runtime) { $0 + 100 }
        #expect(r1 == .wrapped(depth: 1))
        #expect(runtime.methods["Base"]?["select"] == 101)   // wrapped where it is defined
        #expect(runtime.methods["Sub"]?["select"] == nil)    // nothing added to the subclass
        let r2 = hooks.hook("select", for: "Base", in: runtime) { $0 + 100 }
        #expect(r2 == .alreadyWrapped)
        #expect(runtime.methods["Base"]?["select"] == 101)   // never wrapped twice
        let r3 = hooks.hook("select", for: "Forwarder", in: runtime) { $0 + 100 }
        #expect(r3 == .notImplemented)
        #expect(runtime.methods["Forwarder"]?.isEmpty == true)
        #expect(hooks.isWrapped("select", definedIn: "Base") && !hooks.isWrapped("select", definedIn: "Sub"))
    }

    @Test func nestedHookedCallsRecordOnlyAtTheOutermost() {
        var nesting = CaptureCallNesting()
        let key = CaptureCallNesting.Key(receiver: ObjectIdentifier(CallLog()), callback: "didSelect")
        let r4 = nesting.enter(key)
        #expect(r4)           // the subclass's wrapper: records
        let r5 = nesting.enter(key)
        #expect(!r5)          // super's wrapper inside it: does not
        nesting.leave(key)
        nesting.leave(key)
        #expect(!nesting.isInside(key))
        let r6 = nesting.enter(key)
        #expect(r6)           // the next selection records again
    }

    // MARK: Controls

    @Test func aTapRecordsOneTargetActionWhateverActionsTheControlSends() async {
        let app = App(tasks: [])
        Seen.trace(app.manager, "target-action")
        let screen = NamedScreen("product")
        let targetAction = HeadlessButton()                       // touch down + touch up inside
        let uiAction = HeadlessButton(handlers: .actions)         // UIButton(primaryAction:)
        let slider = HeadlessSlider()
        for (view, key) in [(targetAction, "buy"), (uiAction, "share"), (slider, "volume")] as [(HeadlessView, String)] {
            screen.view.addSubview(view)
            screen.analyzer.setSubAnalyzer(view.analyzer, for: key)
        }
        app.application.window.show(screen)
        targetAction.tap()
        uiAction.tap()
        slider.drag(through: [0.1, 0.2, 0.3, 0.4, 0.5])         // .valueChanged five times, one drag

        #expect(targetAction.handlerCalls == 2 && uiAction.handlerCalls == 1 && slider.handlerCalls == 5)
        let results = await app.delegate.waitForResults(count: 3)
        #expect(results == [
            Seen.seen("/product/buy", "target-action"),
            Seen.seen("/product/share", "target-action"),
            Seen.seen("/product/volume", "target-action"),
        ])
        await app.delegate.drain()
        #expect(app.delegate.results.count == 3)
    }

    @Test func actionsSentByCodeRecordEachTimeAndInProgressEventsNever() {
        var rule = ControlActionRule()
        let control = ObjectIdentifier(CallLog())
        let r7 = rule.shouldRecord(control: control, events: [.primaryActionTriggered])
        #expect(r7)
        let r8 = rule.shouldRecord(control: control, events: [.primaryActionTriggered])
        #expect(r8)   // no touch: each
        rule.dispatchBegins(touchBegan: true)
        let r9 = rule.shouldRecord(control: control, events: [.touchDown])
        #expect(!r9)               // under way
        let r10 = rule.shouldRecord(control: control, events: [.touchDragInside, .editingChanged])
        #expect(!r10)
        let r11 = rule.shouldRecord(control: control, events: [.valueChanged])
        #expect(r11)
        let r12 = rule.shouldRecord(control: control, events: [.valueChanged])
        #expect(!r12)            // same touch
        rule.dispatchEnded()
        rule.dispatchBegins(touchBegan: false)                                             // the touch moves on
        let r13 = rule.shouldRecord(control: control, events: [.valueChanged])
        #expect(!r13)
        rule.dispatchEnded()
        rule.dispatchBegins(touchBegan: true)                                              // a new touch
        let r14 = rule.shouldRecord(control: control, events: [.touchUpInside])
        #expect(r14)
        rule.dispatchEnded()
        let r15 = rule.shouldRecord(control: control, events: [])
        #expect(r15)                           // unknown: primary
        #expect(ControlEvent.allCases.filter(\.recordsTargetAction).count == 6)
    }

    // MARK: Presentations

    @Test func aSheetCoversItsPresenterUntilItIsDismissed() async {
        let app = App(tasks: [])
        CaptureScenarioTests.trace(app.manager, "appeared", "disappeared")
        let master = NamedScreen("master")
        app.application.window.show(master)
        let sheet = NamedScreen("sheet")
        master.present(sheet)                                   // UIKit: no viewDidDisappear for master
        #expect(!master.isVisible && sheet.isVisible)
        master.dismissPresented()                               // swiped away: no viewDidAppear for master
        #expect(master.isVisible && !sheet.isVisible)

        let results = await app.delegate.waitForResults(count: 5)
        #expect(results == [
            Seen.seen("/master", "appeared"),
            Seen.seen("/master/sheet", "appeared"),
            Seen.seen("/master", "disappeared"),
            Seen.seen("/master/sheet", "disappeared"),
            Seen.seen("/master", "appeared"),
        ])
    }

    @Test func aFullScreenPresentationRecordsEachChangeOnce() async {
        let app = App(tasks: [])
        CaptureScenarioTests.trace(app.manager, "master/appeared", "master/disappeared")
        let master = NamedScreen("master")
        app.application.window.show(master)
        master.present(NamedScreen("player"), style: .fullScreen)   // viewDidDisappear, then the player appears
        master.dismissPresented()                                    // the player goes, then viewDidAppear

        let results = await app.delegate.waitForResults(count: 3)
        #expect(results == [
            Seen.seen("/master", "appeared"),
            Seen.seen("/master", "disappeared"),
            Seen.seen("/master", "appeared"),
        ])
        await app.delegate.drain()
        #expect(app.delegate.results.count == 3)
    }

    @Test func coverageDoesNotDependOnTheOrderOfThePlatformsCallbacks() {
        var presentations = ScreenPresentations()
        let screens = (CallLog(), CallLog())
        let presenter = ObjectIdentifier(screens.0)
        let presented = ObjectIdentifier(screens.1)
        let r16 = presentations.didAppear(presenter)
        #expect(r16 == [.appeared(presenter)])
        presentations.willPresent(presented, from: presenter)
        // Full screen, callbacks in the "wrong" order: the presented screen appears first.
        let r17 = presentations.didAppear(presented)
        #expect(r17 == [.appeared(presented), .disappeared(presenter)])
        let r18 = presentations.didDisappear(presenter, isDismissed: false)
        #expect(r18 == [])
        #expect(presentations.presenter(of: presented) == presenter)
        // Dismissed: the presenter's own viewDidAppear first, then the presented screen goes.
        let r19 = presentations.didAppear(presenter)
        #expect(r19 == [])
        let r20 = presentations.didDisappear(presented, isDismissed: true)
        #expect(r20 == [.disappeared(presented), .appeared(presenter)])
        #expect(presentations.presenter(of: presented) == nil)
        #expect(presentations.isVisible(presenter))
        withExtendedLifetime(screens) {}
    }

    @Test func aPresentedScreenLandsUnderTheScreenThatCalledPresentNotItsContainer() async {
        let app = App(tasks: [])
        let (master, navigation) = app.showMaster(rows: ["a"])
        master.table.select(row: 0)
        let detail = DetailScreen()
        navigation.push(detail)
        detail.button.tap()
        let sheet = NamedScreen("share")
        detail.present(sheet)           // UIKit's presentingViewController would be the navigation controller
        #expect(sheet.analyzer.path == "/master/tableView/cell/detail/button/share")
    }
}

