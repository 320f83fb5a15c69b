@_spi(Capture) import AnnaFocusPaths

/// A control: the user's touches are dispatched by the window as one touch sequence,
/// in which the control sends its actions, as UIKit's `UIControl` does. Whether an
/// action records ``AnnaFocusPaths/FocusEvent/Name/targetAction`` is the capture core's rule,
/// shared with the UIKit hooks: once per touch sequence and control, only for events
/// in which the user did something, and the same for target-action and `UIAction`
/// handlers. The touch's end records ``AnnaFocusPaths/FocusEvent/Name/didEndTouch``.
open class HeadlessControl: HeadlessView {
    /// How the control's handlers are attached, as on UIKit.
    public enum Handlers: Sendable, Hashable {
        /// `addTarget(_:action:for:)`: sent through `sendAction(_:to:for:)`.
        case targetAction
        /// `UIAction`s (`UIButton(primaryAction:)`, `addAction(_:for:)`): sent through
        /// `sendAction(_: UIAction)`.
        case actions
    }

    /// How the control's handlers are attached.
    public let handlers: Handlers
    /// How many handlers ran (what the app's own code saw), whatever was recorded.
    public private(set) var handlerCalls = 0

    /// Creates a control.
    /// - Parameter handlers: How its handlers are attached; target-action by default.
    public init(handlers: Handlers = .targetAction) {
        self.handlers = handlers
        super.init()
    }

    /// The user touches the control: one touch sequence, dispatched by the window,
    /// during which `body` sends the control's actions; the touch ends at its end.
    func touchSequence(_ body: () -> Void) {
        let rules = owningScreen?.rootWindow?.application?.captureRules
        rules?.controlActions.dispatchBegins(touchBegan: true)
        body()
        rules?.controlActions.dispatchEnded()
        AnnaCapture.touchDidEnd(analyzer)
    }

    /// The control sends the actions of `events` (each handler registered for them runs).
    func send(_ events: Set<ControlEvent>) {
        handlerCalls += 1
        let rules = owningScreen?.rootWindow?.application?.captureRules
        var fallback = ControlActionRule()
        let records = rules?.controlActions.shouldRecord(control: ObjectIdentifier(self), events: events)
            ?? fallback.shouldRecord(control: ObjectIdentifier(self), events: events)
        if records { AnnaCapture.targetAction(analyzer) }
    }

    /// Code sends the control's primary actions (`sendActions(for:)`), outside any
    /// touch: each call records.
    public func sendActionsFromCode() {
        send([.primaryActionTriggered])
    }
}

/// A button: a tap is a touch sequence in which it sends its touch-down and
/// touch-up-inside actions (or, with `UIAction`s, its primary action); it records
/// ``AnnaFocusPaths/FocusEvent/Name/targetAction`` once, is focused, and ends a touch.
public final class HeadlessButton: HeadlessControl {
    /// Taps the button.
    public func tap() {
        touchSequence {
            switch handlers {
            case .targetAction:
                send([.touchDown])
                send([.touchUpInside])
            case .actions:
                send([.primaryActionTriggered])
            }
        }
    }
}

/// A continuous control such as a slider: a drag is one touch sequence that sends
/// `.valueChanged` at every step; it records once.
public final class HeadlessSlider: HeadlessControl {
    /// The value.
    public private(set) var value: Double = 0

    /// Drags the thumb through `values`, sending `.valueChanged` at each.
    public func drag(through values: [Double]) {
        touchSequence {
            for step in values {
                value = step
                send([.valueChanged])
            }
        }
    }
}
