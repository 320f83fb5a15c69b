#if canImport(UIKit) && !os(watchOS)
import ObjectiveC
import UIKit

// Not compiled here (Linux): written against UIKit's documented API; see the README.
extension AnnaCapture {
    @MainActor private static var captureSwitch = CaptureSwitch()

    /// Turns on automatic capture on UIKit: view controllers' appearance, table and
    /// collection views' cells and selections, controls' actions, touches, scrolls and
    /// first-responder changes are forwarded to the capture core for every object that
    /// is ``Analyzable`` with an enabled analyzer. Call it at launch, before views are
    /// created: delegates set earlier are not hooked. Calling it again does nothing.
    @MainActor public static func enableAutomaticCapture() {
        guard captureSwitch.turnOn() else { return }
        UIKitHooks.exchangeAll()
    }

    /// Turns automatic capture off: UIKit's methods get their own implementations back,
    /// and hooked delegates forward nothing. Calling it again does nothing.
    @MainActor public static func disableAutomaticCapture() {
        guard captureSwitch.turnOff() else { return }
        UIKitHooks.exchangeAll()
    }

    /// Whether automatic capture is on.
    @MainActor public static var isAutomaticCaptureEnabled: Bool { captureSwitch.isOn }
}

/// Method exchanges and the per-object state the hooks keep (as associated objects).
@MainActor enum UIKitHooks {
    /// Each pair is exchanged when capture turns on and exchanged back when it turns off.
    static let pairs: [(AnyClass, Selector, Selector)] = [
        (UIViewController.self, #selector(UIViewController.viewDidAppear(_:)), #selector(UIViewController.anna_viewDidAppear(_:))),
        (UIViewController.self, #selector(UIViewController.viewDidDisappear(_:)), #selector(UIViewController.anna_viewDidDisappear(_:))),
        (UIControl.self, #selector(UIControl.sendAction(_:to:for:)), #selector(UIControl.anna_sendAction(_:to:for:))),
        (UIWindow.self, #selector(UIWindow.sendEvent(_:)), #selector(UIWindow.anna_sendEvent(_:))),
        (UIScrollView.self, #selector(setter: UIScrollView.delegate), #selector(UIScrollView.anna_setDelegate(_:))),
        (UIResponder.self, #selector(UIResponder.becomeFirstResponder), #selector(UIResponder.anna_becomeFirstResponder)),
        (UIResponder.self, #selector(UIResponder.resignFirstResponder), #selector(UIResponder.anna_resignFirstResponder)),
    ]

    static func exchangeAll() {
        for (owner, original, hook) in pairs {
            guard let originalMethod = class_getInstanceMethod(owner, original),
                  let hookMethod = class_getInstanceMethod(owner, hook) else { continue }
            method_exchangeImplementations(originalMethod, hookMethod)
        }
    }

    /// What a hooked object remembers between callbacks.
    final class State {
        var visibility = ViewVisibility()
        var isDisplayed = true
        var isScreenVisible: Bool?
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

    /// A view's facts as ``ViewFacts`` defines them; `displayedBy` is the list a cell is in.
    static func facts(of view: UIView, in list: UIView? = nil) -> ViewFacts {
        let host = list ?? view
        var hidden = false
        var current: UIView? = view
        while let ancestor = current, !hidden {
            hidden = ancestor.isHidden
            current = ancestor.superview
        }
        let controller = screen(of: host)
        let screenVisible = controller.map { state(of: $0).isScreenVisible ?? ($0.viewIfLoaded?.window != nil) } ?? false
        return ViewFacts(isInWindow: host.window != nil, isHidden: hidden || (list?.isHidden ?? false),
                         isScreenVisible: screenVisible, isDisplayed: state(of: view).isDisplayed)
    }

    /// Hands every analyzable view under `view` its facts, a view before its subviews.
    static func refreshViews(under view: UIView) {
        if let analyzable = view as? Analyzable {
            let state = state(of: view)
            AnnaCapture.viewFactsChanged(facts(of: view), state: &state.visibility, analyzer: analyzable.analyzer)
        }
        for subview in view.subviews { refreshViews(under: subview) }
    }

    /// The nearest analyzable object at or above a view.
    static func analyzable(from view: UIView?) -> Analyzable? {
        var responder: UIResponder? = view
        while let current = responder {
            if let analyzable = current as? Analyzable, analyzable.analyzer.isEnabled { return analyzable }
            responder = current.next
        }
        return nil
    }
}
#endif
