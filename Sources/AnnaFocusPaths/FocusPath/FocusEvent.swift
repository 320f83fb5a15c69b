import Foundation

/// Something that happened on a focus-path node: a name, a time and, for value
/// updates, the key path and the new value.
///
/// Tasks match events by name, the last component of a pattern:
/// `master/tableView/cell/did-select` waits for `did-select` on a `cell` node.
public struct FocusEvent: Sendable, Hashable {
    /// The event's name: ``Name/appeared``, ``Name/updated``, a trigger's name or any custom name.
    public var name: Name
    /// When the event was recorded, by the manager's clock.
    public var time: Date
    /// The key path and value of an update, boxed: most events have none, and an event
    /// is kept on its node, so it stays at 32 bytes rather than 64.
    private var update: Update?

    /// For ``Name/updated``: the key path whose value changed.
    public var keyPath: String? {
        get { update?.keyPath }
        set { update = Update.box(keyPath: newValue, value: value) }
    }

    /// For ``Name/updated``: the new value; `nil` when the value was cleared.
    public var value: AnalyticsValue? {
        get { update?.value }
        set { update = Update.box(keyPath: keyPath, value: newValue) }
    }

    /// Creates an event.
    package init(name: Name, time: Date, keyPath: String? = nil, value: AnalyticsValue? = nil) {
        self.name = name
        self.time = time
        self.update = Update.box(keyPath: keyPath, value: value)
    }

    public static func == (lhs: FocusEvent, rhs: FocusEvent) -> Bool {
        lhs.name == rhs.name && lhs.time == rhs.time && lhs.keyPath == rhs.keyPath && lhs.value == rhs.value
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(time)
        hasher.combine(keyPath)
        hasher.combine(value)
    }

    /// An update's key path and value; immutable, so copies of an event share it.
    private final class Update: Sendable {
        let keyPath: String?
        let value: AnalyticsValue?

        private init(keyPath: String?, value: AnalyticsValue?) {
            self.keyPath = keyPath
            self.value = value
        }

        /// A box, or `nil` when there is nothing to hold. (Not a failable initializer:
        /// a class's allocates before it can fail.)
        static func box(keyPath: String?, value: AnalyticsValue?) -> Update? {
            guard keyPath != nil || value != nil else { return nil }
            return Update(keyPath: keyPath, value: value)
        }
    }

    /// An event name. Custom names are string literals: `analyzer.record("did-select")`.
    public struct Name: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The name as patterns write it.
        public var rawValue: String
        /// Creates a name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Creates a name from a literal.
        public init(stringLiteral value: String) { self.rawValue = value }
        /// The name.
        public var description: String { rawValue }

        /// The node became visible (SparkChamber's `didAppear`).
        public static let appeared: Name = "appeared"
        /// The node stopped being visible (SparkChamber's `didDisappear`).
        public static let disappeared: Name = "disappeared"
        /// A value on the node changed: ``Analyzing/update(_:for:)`` and `observe(_:for:named:)`.
        public static let updated: Name = "updated"
        /// A touch on the node ended.
        public static let didEndTouch: Name = "did-end-touch"
        /// Scrolling began in the node.
        public static let didBeginScroll: Name = "did-begin-scroll"
        /// The node became the first responder.
        public static let didBecomeFirstResponder: Name = "did-become-first-responder"
        /// The node resigned the first responder.
        public static let didResignFirstResponder: Name = "did-resign-first-responder"
        /// The node's control sent its action.
        public static let targetAction: Name = "target-action"
        /// A row or item was selected.
        public static let didSelect: Name = "did-select"
    }
}

/// SparkChamber's triggers. Each is a ``FocusEvent/Name``; a ``SparkEvent`` attached to
/// an analyzer runs its action when its trigger's event is recorded there.
public enum SparkTrigger: String, Sendable, Hashable, CaseIterable {
    /// Never fires; a single-fire event's trigger once it fired.
    case none
    /// ``FocusEvent/Name/appeared``.
    case didAppear
    /// ``FocusEvent/Name/disappeared``.
    case didDisappear
    /// ``FocusEvent/Name/didEndTouch``.
    case didEndTouch
    /// ``FocusEvent/Name/didBeginScroll``.
    case didBeginScroll
    /// ``FocusEvent/Name/didBecomeFirstResponder``.
    case didBecomeFirstResponder
    /// ``FocusEvent/Name/didResignFirstResponder``.
    case didResignFirstResponder
    /// ``FocusEvent/Name/targetAction``.
    case targetAction

    /// The event this trigger waits for; `nil` for ``none``.
    package var eventName: FocusEvent.Name? {
        switch self {
        case .none: nil
        case .didAppear: .appeared
        case .didDisappear: .disappeared
        case .didEndTouch: .didEndTouch
        case .didBeginScroll: .didBeginScroll
        case .didBecomeFirstResponder: .didBecomeFirstResponder
        case .didResignFirstResponder: .didResignFirstResponder
        case .targetAction: .targetAction
        }
    }
}

/// A closure attached to an analyzer for a trigger (SparkChamber's Spark event).
///
/// ```swift
/// var shown = Date()
/// analyzer.attach(SparkEvent(trigger: .didAppear) { context in shown = context.timestamp })
/// analyzer.attach(SparkEvent(trigger: .didDisappear) { context in
///     print("on screen", context.visibleDuration)
/// })
/// analyzer.attach(SparkEvent(trigger: .didAppear, isSingleFire: true) { _ in /* first view only */ })
/// ```
/// Actions run on the manager's ``Manager/delegateQueue``, in the order their events
/// were recorded.
public struct SparkEvent: Sendable, Identifiable {
    /// What the action receives.
    public struct Context: Sendable {
        /// When the trigger's event was recorded.
        public var timestamp: Date
        /// The node's path.
        public var path: String
        /// The node's time on screen at that moment (see ``Node/visibleDuration``).
        public var visibleDuration: TimeInterval
        /// The event itself.
        public var event: FocusEvent
    }

    /// The trigger the action waits for.
    public var trigger: SparkTrigger
    /// A text for debugging, shown in snapshots.
    public var trace: String?
    /// Identifies the event for correlation; detaching by identifier uses it.
    public var id: UUID
    /// Whether the action runs once only; its trigger then becomes ``SparkTrigger/none``.
    public var isSingleFire: Bool
    /// The action.
    public var action: @Sendable (Context) -> Void

    /// Creates a Spark event.
    public init(
        trigger: SparkTrigger, trace: String? = nil, id: UUID = UUID(), isSingleFire: Bool = false,
        action: @escaping @Sendable (Context) -> Void
    ) {
        self.trigger = trigger
        self.trace = trace
        self.id = id
        self.isSingleFire = isSingleFire
        self.action = action
    }
}
