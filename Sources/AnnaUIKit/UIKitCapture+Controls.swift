#if canImport(UIKit) && !os(watchOS)
@_spi(Capture) import Anna
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
                if isRecording, let control = receiver as? UIControl {
                    MainActor.assumeIsolated { controlSent(control, events: events(of: control, action: action, target: target)) }
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
                guard isRecording, let touchEvent = event as? UIEvent else { return call(receiver, sendEvent, event) }
                MainActor.assumeIsolated {
                    guard touchEvent.type == .touches else { return call(receiver, sendEvent, event) }
                    let touches = touchEvent.allTouches ?? []
                    controlActions.dispatchBegins(touchBegan: touches.contains { $0.phase == .began })
                    call(receiver, sendEvent, event)
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
                    guard isRecording, let responder = receiver as? UIResponder else { return call(receiver, selector) }
                    return MainActor.assumeIsolated {
                        let was = responder.isFirstResponder
                        let result = call(receiver, selector)
                        if let analyzer = responder.existingAnalyzer {
                            let now = responder.isFirstResponder
                            if becoming {
                                AnnaCapture.becomeFirstResponderReturned(analyzer, wasFirstResponder: was, isFirstResponder: now)
                            } else {
                                AnnaCapture.resignFirstResponderReturned(analyzer, wasFirstResponder: was, isFirstResponder: now)
                            }
                        }
                        return result
                    }
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

    /// The events a target-action pair is registered for.
    static func events(of control: UIControl, action: Selector, target: AnyObject?) -> Set<ControlEvent> {
        let name = NSStringFromSelector(action)
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
