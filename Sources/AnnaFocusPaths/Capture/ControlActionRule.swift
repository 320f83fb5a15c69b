/// A control event, as UIKit names them (`UIControl.Event`).
package enum ControlEvent: String, Sendable, Hashable, CaseIterable {
    case touchDown, touchDownRepeat, touchDragInside, touchDragOutside, touchDragEnter, touchDragExit
    case touchUpInside, touchUpOutside, touchCancel
    case valueChanged, primaryActionTriggered, menuActionTriggered
    case editingDidBegin, editingChanged, editingDidEnd, editingDidEndOnExit

    /// Whether an action sent for this event is something the user did, and so records
    /// ``FocusEvent/Name/targetAction``: a completed tap, a changed value, a primary or
    /// menu action, an ended edit. Steps of an interaction under way (touch down, drag,
    /// cancel, editing changes) do not record.
    package var recordsTargetAction: Bool {
        switch self {
        case .touchUpInside, .valueChanged, .primaryActionTriggered, .menuActionTriggered,
             .editingDidEnd, .editingDidEndOnExit:
            return true
        case .touchDown, .touchDownRepeat, .touchDragInside, .touchDragOutside, .touchDragEnter, .touchDragExit,
             .touchUpOutside, .touchCancel, .editingDidBegin, .editingChanged:
            return false
        }
    }
}

/// When a control's action records ``FocusEvent/Name/targetAction``: once per user
/// interaction, whatever path the action took and however often it was sent.
///
/// - Target-action (`sendAction(_:to:for:)`) and `UIAction` handlers
///   (`UIButton(primaryAction:)`, `addAction(_:for:)`, sent through
///   `sendAction(_: UIAction)`) are the same fact: either records.
/// - Only events in which the user did something record (``ControlEvent/recordsTargetAction``).
/// - Every action sent while one touch sequence is dispatched (a slider's
///   `.valueChanged` at each step of a drag; a button's several targets) records once
///   per control. The platform adapter brackets the window's dispatch of touch events
///   with ``dispatchBegins(touchBegan:)`` and ``dispatchEnded()``.
/// - Actions sent outside a touch (code calling `sendActions(for:)`, the keyboard,
///   accessibility) record each time.
package struct ControlActionRule: Sendable {
    private var sequence = 0
    private var recorded: [ObjectIdentifier: Int] = [:]
    /// The touch sequence whose event is being dispatched, `nil` outside a dispatch.
    package private(set) var dispatchingSequence: Int?

    package init() {}

    /// The window starts dispatching a touch event; `touchBegan` when a touch in it
    /// began, which starts a new sequence.
    package mutating func dispatchBegins(touchBegan: Bool) {
        if touchBegan || sequence == 0 {
            sequence += 1
            recorded.removeAll(keepingCapacity: true)
        }
        dispatchingSequence = sequence
    }

    /// The window finished dispatching the event.
    package mutating func dispatchEnded() {
        dispatchingSequence = nil
    }

    /// Whether an action the control sends now records.
    /// - Parameters:
    ///   - control: The control.
    ///   - events: The events the action is registered for; empty when unknown (taken
    ///     as the primary action).
    /// - Returns: `true` when it records.
    package mutating func shouldRecord(control: ObjectIdentifier, events: Set<ControlEvent>) -> Bool {
        guard events.isEmpty || events.contains(where: \.recordsTargetAction) else { return false }
        guard let touchSequence = dispatchingSequence else { return true }
        if recorded[control] == touchSequence { return false }
        recorded[control] = touchSequence
        return true
    }
}
