@_spi(Capture) import AnnaFocusPaths

/// A callback a list sends its delegate, as UIKit's table and collection view
/// delegates receive them.
public enum HeadlessListCallback: String, Sendable, Hashable, CaseIterable {
    /// `tableView(_:willDisplay:forRowAt:)` / `collectionView(_:willDisplay:forItemAt:)`.
    case willDisplay
    /// `tableView(_:didEndDisplaying:forRowAt:)` / `collectionView(_:didEndDisplaying:forItemAt:)`.
    case didEndDisplaying
    /// `tableView(_:didSelectRowAt:)` / `collectionView(_:didSelectItemAt:)`.
    case didSelect
}

/// One callback as a delegate receives it.
public struct HeadlessListCall {
    /// The list sending it.
    public let list: HeadlessList
    /// The row's place.
    public let place: IndexPair
    /// The row's cell.
    public let cell: HeadlessTableCell
}

/// A class of delegate objects as the Objective-C runtime sees one: the methods it
/// defines itself, and its superclass. Anna's capture replaces implementations in
/// these tables exactly as AnnaUIKit replaces them in Objective-C classes (the same
/// ``Anna/DelegateHooks`` algorithm), so delegates that forward, subclasses that call
/// `super` and classes that implement only some callbacks behave here as in an app.
///
/// ```swift
/// let base = HeadlessDelegateClass(name: "Base", methods: [.didSelect: { _, call in log.append("base") }])
/// let sub = HeadlessDelegateClass(name: "Sub", superclass: base)
/// sub.define(.didSelect) { [unowned sub] object, call in
///     sub.callSuper(.didSelect, on: object, call)   // super.tableView(_:didSelectRowAt:)
///     log.append("sub")
/// }
/// table.delegate = HeadlessDelegate(of: sub)
/// ```
public final class HeadlessDelegateClass: Hashable {
    /// A method: what it does with the receiving object and the call.
    public typealias Implementation = (HeadlessDelegate, HeadlessListCall) -> Void

    /// The class's name.
    public let name: String
    /// The superclass.
    public let superclass: HeadlessDelegateClass?
    var methods: [HeadlessListCallback: Implementation]

    /// Creates a class.
    /// - Parameters:
    ///   - name: Its name.
    ///   - superclass: Its superclass.
    ///   - methods: The callbacks it implements itself.
    public init(name: String, superclass: HeadlessDelegateClass? = nil, methods: [HeadlessListCallback: Implementation] = [:]) {
        self.name = name
        self.superclass = superclass
        self.methods = methods
    }

    /// Defines (or redefines) the class's own implementation of a callback, as a
    /// class body does; for a subclass whose implementation calls ``callSuper(_:on:_:)``.
    /// - Parameters:
    ///   - callback: The callback.
    ///   - implementation: What it does.
    public func define(_ callback: HeadlessListCallback, _ implementation: @escaping Implementation) {
        methods[callback] = implementation
    }

    /// The implementation an instance uses: the class's own or the nearest superclass's.
    func lookup(_ callback: HeadlessListCallback) -> Implementation? {
        methods[callback] ?? superclass?.lookup(callback)
    }

    /// Calls the superclass's implementation, as a method does with `super`; for
    /// implementations of this class.
    /// - Parameters:
    ///   - callback: The callback.
    ///   - object: The receiving object.
    ///   - call: The call's arguments.
    public func callSuper(_ callback: HeadlessListCallback, on object: HeadlessDelegate, _ call: HeadlessListCall) {
        superclass?.lookup(callback)?(object, call)
    }

    public static func == (lhs: HeadlessDelegateClass, rhs: HeadlessDelegateClass) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// A delegate object of a ``HeadlessDelegateClass``.
public final class HeadlessDelegate {
    /// Its class.
    public let type: HeadlessDelegateClass
    /// For a forwarding proxy (RxCocoa's `DelegateProxy`, WebKit's forwarders): where
    /// callbacks its class does not implement go, as `forwardingTarget(for:)` says.
    public let forwardingTarget: HeadlessDelegate?

    /// Creates a delegate.
    /// - Parameters:
    ///   - type: Its class.
    ///   - forwardingTarget: Where it forwards what it does not implement.
    public init(of type: HeadlessDelegateClass, forwardingTo forwardingTarget: HeadlessDelegate? = nil) {
        self.type = type
        self.forwardingTarget = forwardingTarget
    }

    /// Whether the list sends it the callback: its class implements it, or it forwards
    /// it to an object that does (UIKit asks `responds(to:)`).
    public func responds(to callback: HeadlessListCallback) -> Bool {
        type.lookup(callback) != nil || forwardingTarget?.responds(to: callback) == true
    }

    /// Sends the callback as the runtime does: to its own implementation, else to the
    /// forwarding target.
    func receive(_ callback: HeadlessListCallback, _ call: HeadlessListCall) {
        if let implementation = type.lookup(callback) {
            implementation(self, call)
        } else {
            forwardingTarget?.receive(callback, call)
        }
    }
}

/// ``Anna/DelegateHookRuntime`` over headless classes.
struct HeadlessRuntime: DelegateHookRuntime {
    func superclass(of type: HeadlessDelegateClass) -> HeadlessDelegateClass? { type.superclass }

    func ownImplementation(of selector: HeadlessListCallback, in type: HeadlessDelegateClass)
        -> HeadlessDelegateClass.Implementation? {
        type.methods[selector]
    }

    func replaceOwnImplementation(
        of selector: HeadlessListCallback, in type: HeadlessDelegateClass,
        with implementation: @escaping HeadlessDelegateClass.Implementation
    ) {
        type.methods[selector] = implementation
    }
}

/// The process's delegate hooks over headless classes, as AnnaUIKit keeps them for
/// Objective-C classes: a class is wrapped once, whichever list or application set
/// one of its objects as a delegate first. Tests may run in parallel: the state is
/// behind a lock, never held while an implementation runs.
enum HeadlessDelegateHooks {
    private struct State {
        var hooks = DelegateHooks<HeadlessRuntime>()
        var nesting = CaptureCallNesting()
    }

    private static let state = LockedState(State())

    /// Wraps the implementation of `callback` that objects of `type` use, once.
    static func hook(_ callback: HeadlessListCallback, for type: HeadlessDelegateClass) {
        state.withLock { state in
            _ = state.hooks.hook(callback, for: type, in: HeadlessRuntime()) { original in
                { receiver, call in
                    let key = CaptureCallNesting.Key(receiver: ObjectIdentifier(receiver), callback: callback.rawValue)
                    let outermost = Self.state.withLock { $0.nesting.enter(key) }
                    if outermost { HeadlessList.capture(callback, call) }
                    original(receiver, call)
                    Self.state.withLock { $0.nesting.leave(key) }
                }
            }
        }
    }
}
