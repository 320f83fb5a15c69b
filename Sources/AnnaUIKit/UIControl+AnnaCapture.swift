#if canImport(UIKit) && !os(watchOS)
import UIKit

// Not compiled here (Linux): see the README.
extension UIControl {
    /// Called by UIKit once per target of an action.
    @objc dynamic func anna_sendAction(_ action: Selector, to target: Any?, for event: UIEvent?) {
        anna_sendAction(action, to: target, for: event)
        if let analyzable = self as? Analyzable { AnnaCapture.targetAction(analyzable.analyzer) }
    }
}

extension UIWindow {
    /// A touch that ended records `did-end-touch` on the nearest analyzable view it hit.
    @objc dynamic func anna_sendEvent(_ event: UIEvent) {
        anna_sendEvent(event)
        guard event.type == .touches, let touches = event.allTouches else { return }
        for touch in touches where touch.phase == .ended {
            if let analyzable = UIKitHooks.analyzable(from: touch.view) { AnnaCapture.touchDidEnd(analyzable.analyzer) }
        }
    }
}
#endif
