#if canImport(UIKit) && !os(watchOS)
@_spi(Capture) import AnnaFocusPaths
import ObjectiveC
import UIKit

/// Controls' actions, touches and the first responder.
extension UIKitCapture {
    nonisolated static func installControlHooks() {
        // Target-action: called once per target of each event the control sends.
        typealias SendTargetAction = @convention(c) (AnyObject, Selector, Selector, AnyObject?, AnyObject?) -> Void
        let sendTargetAction = #selector(UIControl.sendAction(_:to:for:))
        MethodHooks.hook(UIControl.self, sendTargetAction) { original in
            let call = unsafeBitCast(original, to: SendTargetAction.self)
            let block: @convention(block) (AnyObject, Selector, AnyObject?, AnyObject?) -> Void = {
                receiver, action, target, event in
                // UIControl is NS_SWIFT_UI_ACTOR (UIControl.h:75), so `control` is Sendable;
                // the target crosses as its identity only.
                if isRecording, let control = receiver as? UIControl {
                    let targetID = target.map(ObjectIdentifier.init)
                    MainActor.assumeIsolated { controlSent(control, events: events(of: control, action: action, targetID: targetID)) }
                }
                call(receiver, sendTargetAction, action, target, event)
            }
            return block
        }
        // UIAction handlers (`UIButton(primaryAction:)`, `addAction(_:for:)`, iOS 14):
        // `sendAction(_: UIAction)`, the same fact as target-action.
        typealias SendUIAction = @convention(c) (AnyObject, Selector, AnyObject) -> Void
        let sendUIAction = NSSelectorFromString("sendAction:")
        MethodHooks.hook(UIControl.self, sendUIAction) { original in
            let call = unsafeBitCast(original, to: SendUIAction.self)
            let block: @convention(block) (AnyObject, AnyObject) -> Void = { receiver, action in
                if isRecording, let control = receiver as? UIControl {
                    MainActor.assumeIsolated { controlSent(control, events: []) }
                }
                call(receiver, sendUIAction, action)
            }
            return block
        }
        // Touches: the window dispatches each touch event; actions sent meanwhile belong
        // to its touch sequence, and an ended touch records `did-end-touch`.
        typealias SendEvent = @convention(c) (AnyObject, Selector, AnyObject) -> Void
        let sendEvent = #selector(UIWindow.sendEvent(_:))
        MethodHooks.hook(UIWindow.self, sendEvent) { original in
            let call = unsafeBitCast(original, to: SendEvent.self)
            let block: @convention(block) (AnyObject, AnyObject) -> Void = { receiver, event in
                // UIEvent and UITouch are NS_SWIFT_UI_ACTOR (UIEvent.h:61, UITouch.h:50):
                // Sendable, read on the main actor; the original runs between the two.
                guard isRecording, let touchEvent = event as? UIEvent else { return call(receiver, sendEvent, event) }
                let touches = MainActor.assumeIsolated { () -> Set<UITouch>? in
                    guard touchEvent.type == .touches else { return nil }
                    let touches = touchEvent.allTouches ?? []
                    controlActions.dispatchBegins(touchBegan: touches.contains { $0.phase == .began })
                    return touches
                }
                call(receiver, sendEvent, event)
                guard let touches else { return }
                MainActor.assumeIsolated {
                    controlActions.dispatchEnded()
                    for touch in touches where touch.phase == .ended {
                        if let analyzer = enabledAnalyzer(from: touch.view) { AnnaCapture.touchDidEnd(analyzer) }
                    }
                }
            }
            return block
        }
        // The first responder: UIKit's methods return `true` for an object that already
        // is (or is not) the first responder; the core decides from the state before.
        typealias Responding = @convention(c) (AnyObject, Selector) -> Bool
        for (selector, becoming) in [(#selector(UIResponder.becomeFirstResponder), true),
                                     (#selector(UIResponder.resignFirstResponder), false)] {
            MethodHooks.hook(UIResponder.self, selector) { original in
                let call = unsafeBitCast(original, to: Responding.self)
                let block: @convention(block) (AnyObject) -> Bool = { receiver in
                    // UIResponder is NS_SWIFT_UI_ACTOR (UIResponder.h:69): `responder` is Sendable.
                    guard isRecording, let responder = receiver as? UIResponder else { return call(receiver, selector) }
                    let was = MainActor.assumeIsolated { responder.isFirstResponder }
                    let result = call(receiver, selector)
                    MainActor.assumeIsolated {
                        guard let analyzer = responder.existingAnalyzer else { return }
                        let now = responder.isFirstResponder
                        if becoming {
                            AnnaCapture.becomeFirstResponderReturned(analyzer, wasFirstResponder: was, isFirstResponder: now)
                        } else {
                            AnnaCapture.resignFirstResponderReturned(analyzer, wasFirstResponder: was, isFirstResponder: now)
                        }
                    }
                    return result
                }
                return block
            }
        }
    }

    /// A control sent an action: the core decides whether it records.
    static func controlSent(_ control: UIControl, events: Set<ControlEvent>) {
        guard let analyzer = control.existingAnalyzer, analyzer.isEnabled,
              controlActions.shouldRecord(control: ObjectIdentifier(control), events: events) else { return }
        AnnaCapture.targetAction(analyzer)
    }

    /// The events a target-action pair is registered for; the target is found among the
    /// control's own by identity (`nil`: sent up the responder chain).
    static func events(of control: UIControl, action: Selector, targetID: ObjectIdentifier?) -> Set<ControlEvent> {
        let name = NSStringFromSelector(action)
        var target: AnyObject?
        if let targetID {
            // `allTargets` may hold NSNull for a nil target (UIControl.h:119); it never matches.
            guard let registered = control.allTargets.first(where: { ObjectIdentifier($0.base as AnyObject) == targetID })
            else { return [] }
            target = registered.base as AnyObject
        }
        return Set(controlEvents.compactMap { uikit, event in
            control.actions(forTarget: target, forControlEvent: uikit)?.contains(name) == true ? event : nil
        })
    }

    /// UIKit's control events and the core's names for them (UIControl.h).
    static var controlEvents: [(UIControl.Event, ControlEvent)] { [
        (.touchDown, .touchDown), (.touchDownRepeat, .touchDownRepeat), (.touchDragInside, .touchDragInside),
        (.touchDragOutside, .touchDragOutside), (.touchDragEnter, .touchDragEnter), (.touchDragExit, .touchDragExit),
        (.touchUpInside, .touchUpInside), (.touchUpOutside, .touchUpOutside), (.touchCancel, .touchCancel),
        (.valueChanged, .valueChanged), (.primaryActionTriggered, .primaryActionTriggered),
        (.menuActionTriggered, .menuActionTriggered), (.editingDidBegin, .editingDidBegin),
        (.editingChanged, .editingChanged), (.editingDidEnd, .editingDidEnd), (.editingDidEndOnExit, .editingDidEndOnExit),
    ] }
}
#endif
