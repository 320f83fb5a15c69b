#if canImport(UIKit) && !os(watchOS)
@_spi(Capture) import AnnaFocusPaths
import ObjectiveC
import UIKit

/// View controllers: appearance, presentations, and the facts of their views.
extension UIKitCapture {
    nonisolated static func installScreenHooks() {
        typealias Appearance = @convention(c) (AnyObject, Selector, Bool) -> Void
        let didAppear = #selector(UIViewController.viewDidAppear(_:))
        MethodHooks.hook(UIViewController.self, didAppear) { original in
            let call = unsafeBitCast(original, to: Appearance.self)
            let block: @convention(block) (AnyObject, Bool) -> Void = { receiver, animated in
                call(receiver, didAppear, animated)
                guard isRecording, let controller = receiver as? UIViewController else { return }
                MainActor.assumeIsolated { screenDidAppear(controller) }
            }
            return block
        }
        let didDisappear = #selector(UIViewController.viewDidDisappear(_:))
        MethodHooks.hook(UIViewController.self, didDisappear) { original in
            let call = unsafeBitCast(original, to: Appearance.self)
            let block: @convention(block) (AnyObject, Bool) -> Void = { receiver, animated in
                call(receiver, didDisappear, animated)
                guard isRecording, let controller = receiver as? UIViewController else { return }
                MainActor.assumeIsolated { screenDidDisappear(controller) }
            }
            return block
        }
        typealias Present = @convention(c) (AnyObject, Selector, AnyObject, Bool, (@convention(block) () -> Void)?) -> Void
        let present = #selector(UIViewController.present(_:animated:completion:))
        MethodHooks.hook(UIViewController.self, present) { original in
            let call = unsafeBitCast(original, to: Present.self)
            let block: @convention(block) (AnyObject, AnyObject, Bool, (@convention(block) () -> Void)?) -> Void = {
                receiver, presented, animated, completion in
                // UIViewController is NS_SWIFT_UI_ACTOR (UIViewController.h:101): both
                // controllers are Sendable. An off-main call is passed through.
                guard Thread.isMainThread, let caller = receiver as? UIViewController,
                      let shown = presented as? UIViewController
                else { return call(receiver, present, presented, animated, completion) }
                // UIKit may forward `present` to an ancestor, which calls it again: the
                // outermost call names the screen the app called it on.
                once(presented, "present", { willPresent(shown, from: caller) },
                     around: { call(receiver, present, presented, animated, completion) })
            }
            return block
        }
    }

    // MARK: Presentations

    static func willPresent(_ presented: UIViewController, from caller: UIViewController) {
        remember(presented)
        remember(caller)
        presentations.willPresent(ObjectIdentifier(presented), from: ObjectIdentifier(caller))
    }

    /// The controller `present` was called on to show `controller`, while it is shown.
    static func presenter(of controller: UIViewController) -> UIViewController? {
        presentations.presenter(of: ObjectIdentifier(controller)).flatMap { screens[$0]?.controller }
    }

    static func screenDidAppear(_ controller: UIViewController) {
        remember(controller)
        if let object = controller as? any AnalyzableObject { AnnaCapture.attachSubAnalyzers(of: object) }
        apply(presentations.didAppear(ObjectIdentifier(controller)))
    }

    static func screenDidDisappear(_ controller: UIViewController) {
        let dismissed = controller.isBeingDismissed || controller.isMovingFromParent
        apply(presentations.didDisappear(ObjectIdentifier(controller), isDismissed: dismissed))
    }

    /// Records the visibility changes the core decided, with the views' facts.
    private static func apply(_ changes: [ScreenPresentations.Change]) {
        for change in changes {
            switch change {
            case .appeared(let id):
                guard let controller = screens[id]?.controller else { continue }
                state(of: controller).isScreenVisible = true
                if let analyzer = controller.existingAnalyzer { AnnaCapture.screenDidAppear(analyzer) }
                if let view = controller.viewIfLoaded { refreshViews(under: view) }
            case .disappeared(let id):
                guard let controller = screens[id]?.controller else { continue }
                state(of: controller).isScreenVisible = false
                if let view = controller.viewIfLoaded { refreshViews(under: view) }
                if let analyzer = controller.existingAnalyzer { AnnaCapture.screenDidDisappear(analyzer) }
            }
        }
    }

    private static func remember(_ controller: UIViewController) {
        if screens.count > 256 { screens = screens.filter { $0.value.controller != nil } }
        screens[ObjectIdentifier(controller)] = WeakScreen(controller: controller)
    }

    // MARK: Views

    /// What a hooked object remembers between callbacks (an associated object).
    final class State {
        var visibility = ViewVisibility()
        var isDisplayed = true
        var isScreenVisible = false
        var isObservingPan = false
    }

    private static var stateKey: UInt8 = 0

    static func state(of object: AnyObject) -> State {
        withUnsafePointer(to: &stateKey) { key in
            if let state = objc_getAssociatedObject(object, key) as? State { return state }
            let state = State()
            objc_setAssociatedObject(object, key, state, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
            return state
        }
    }

    /// The view controller whose view holds `view`, through the responder chain.
    static func screen(of view: UIView) -> UIViewController? {
        var responder: UIResponder? = view
        while let current = responder {
            if let controller = current as? UIViewController { return controller }
            responder = current.next
        }
        return nil
    }

    /// A view's facts as ``AnnaFocusPaths/ViewFacts`` defines them; `list` is the list a cell is in.
    static func facts(of view: UIView, in list: UIView? = nil) -> ViewFacts {
        let host = list ?? view
        var hidden = false
        var current: UIView? = view
        while let ancestor = current, !hidden {
            hidden = ancestor.isHidden
            current = ancestor.superview
        }
        let visible = screen(of: host).map { state(of: $0).isScreenVisible } ?? false
        return ViewFacts(isInWindow: host.window != nil, isHidden: hidden || (list?.isHidden ?? false),
                         isScreenVisible: visible, isDisplayed: state(of: view).isDisplayed)
    }

    /// Hands every enabled view under `view` its facts, a view before its subviews; a
    /// scroll view also gets its pan observed, for `did-begin-scroll`.
    static func refreshViews(under view: UIView) {
        if let analyzer = view.existingAnalyzer, analyzer.isEnabled {
            let viewState = state(of: view)
            AnnaCapture.viewFactsChanged(facts(of: view), state: &viewState.visibility, analyzer: analyzer)
            if let scrollView = view as? UIScrollView { observePan(of: scrollView, state: viewState) }
        }
        for subview in view.subviews { refreshViews(under: subview) }
    }

    /// The nearest enabled analyzer at or above a view.
    static func enabledAnalyzer(from view: UIView?) -> Analyzer? {
        var responder: UIResponder? = view
        while let current = responder {
            if let analyzer = current.existingAnalyzer, analyzer.isEnabled { return analyzer }
            responder = current.next
        }
        return nil
    }

    /// Scrolling is seen through the scroll view's own pan gesture recognizer (a target
    /// added with `addTarget(_:action:)`), never through its delegate, which may be a
    /// forwarder (WebKit's) or the app's.
    private static func observePan(of scrollView: UIScrollView, state: State) {
        guard !state.isObservingPan else { return }
        state.isObservingPan = true
        scrollView.panGestureRecognizer.addTarget(PanObserver.shared, action: #selector(PanObserver.panned(_:)))
    }
}

/// The target of scroll views' pan gesture recognizers.
@MainActor final class PanObserver: NSObject {
    static let shared = PanObserver()

    @objc func panned(_ recognizer: UIPanGestureRecognizer) {
        guard recognizer.state == .began, UIKitCapture.captureSwitch.isOn,
              let scrollView = recognizer.view as? UIScrollView,
              let analyzer = scrollView.existingAnalyzer, analyzer.isEnabled else { return }
        AnnaCapture.scrollDidBegin(analyzer)
    }
}
#endif
