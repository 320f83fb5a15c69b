#if canImport(UIKit) && !os(watchOS)
import ObjectiveC
import UIKit

// Not compiled here (Linux): see the README. A scroll view's delegate class (a table's
// or collection's included) gets forwarding implementations of the callbacks below the
// first time an instance is set as a delegate; each forwards to the capture core while
// capture is on, then calls the class's own implementation if it has one.
extension UIScrollView {
    @objc dynamic func anna_setDelegate(_ delegate: (any UIScrollViewDelegate)?) {
        if let delegate { DelegateHooks.patch(type(of: delegate)) }
        anna_setDelegate(delegate)
    }
}

@MainActor enum DelegateHooks {
    private static var patched: Set<ObjectIdentifier> = []
    private static var ours: Set<OpaquePointer> = []

    static func patch(_ delegateClass: AnyClass) {
        guard patched.insert(ObjectIdentifier(delegateClass)).inserted else { return }
        add1(delegateClass, #selector(UIScrollViewDelegate.scrollViewWillBeginDragging(_:)), UIScrollViewDelegate.self) { scrollView in
            if let analyzable = scrollView as? Analyzable { AnnaCapture.scrollDidBegin(analyzable.analyzer) }
        }
        TableHooks.patch(delegateClass)
        CollectionHooks.patch(delegateClass)
    }

    /// Whether the class or a superclass declares conformance to the protocol.
    static func conforms(_ owner: AnyClass, to proto: Protocol) -> Bool {
        var current: AnyClass? = owner
        while let type = current {
            if class_conformsToProtocol(type, proto) { return true }
            current = class_getSuperclass(type)
        }
        return false
    }

    /// The callback's original implementation (own or inherited), or `nil`; and the
    /// types encoding, from the method or the protocol.
    private static func original(_ owner: AnyClass, _ selector: Selector, _ proto: Protocol) -> (IMP?, String)? {
        if let method = class_getInstanceMethod(owner, selector) {
            let imp = method_getImplementation(method)
            if ours.contains(OpaquePointer(imp)) { return nil }   // a superclass is already hooked
            guard let types = method_getTypeEncoding(method) else { return nil }
            return (imp, String(cString: types))
        }
        guard let types = protocol_getMethodDescription(proto, selector, false, true).types else { return nil }
        return (nil, String(cString: types))
    }

    private static func install(_ owner: AnyClass, _ selector: Selector, _ block: Any, _ types: String) {
        let imp = imp_implementationWithBlock(block)
        ours.insert(OpaquePointer(imp))
        if !class_addMethod(owner, selector, imp, types), let method = class_getInstanceMethod(owner, selector) {
            method_setImplementation(method, imp)
        }
    }

    /// Hooks a callback with one object argument.
    static func add1(_ owner: AnyClass, _ selector: Selector, _ proto: Protocol, _ handler: @escaping @MainActor (AnyObject) -> Void) {
        guard let (imp, types) = original(owner, selector, proto) else { return }
        typealias Call = @convention(c) (AnyObject, Selector, AnyObject) -> Void
        let call = imp.map { unsafeBitCast($0, to: Call.self) }
        let block: @convention(block) (AnyObject, AnyObject) -> Void = { receiver, first in
            MainActor.assumeIsolated { if AnnaCapture.isAutomaticCaptureEnabled { handler(first) } }
            call?(receiver, selector, first)
        }
        install(owner, selector, block, types)
    }

    /// Hooks a callback with two object arguments.
    static func add2(_ owner: AnyClass, _ selector: Selector, _ proto: Protocol, _ handler: @escaping @MainActor (AnyObject, AnyObject) -> Void) {
        guard let (imp, types) = original(owner, selector, proto) else { return }
        typealias Call = @convention(c) (AnyObject, Selector, AnyObject, AnyObject) -> Void
        let call = imp.map { unsafeBitCast($0, to: Call.self) }
        let block: @convention(block) (AnyObject, AnyObject, AnyObject) -> Void = { receiver, first, second in
            MainActor.assumeIsolated { if AnnaCapture.isAutomaticCaptureEnabled { handler(first, second) } }
            call?(receiver, selector, first, second)
        }
        install(owner, selector, block, types)
    }

    /// Hooks a callback with three object arguments.
    static func add3(_ owner: AnyClass, _ selector: Selector, _ proto: Protocol, _ handler: @escaping @MainActor (AnyObject, AnyObject, AnyObject) -> Void) {
        guard let (imp, types) = original(owner, selector, proto) else { return }
        typealias Call = @convention(c) (AnyObject, Selector, AnyObject, AnyObject, AnyObject) -> Void
        let call = imp.map { unsafeBitCast($0, to: Call.self) }
        let block: @convention(block) (AnyObject, AnyObject, AnyObject, AnyObject) -> Void = { receiver, first, second, third in
            MainActor.assumeIsolated { if AnnaCapture.isAutomaticCaptureEnabled { handler(first, second, third) } }
            call?(receiver, selector, first, second, third)
        }
        install(owner, selector, block, types)
    }

    /// will-display for a list's cell: the cell takes its place under the list and appears.
    static func willDisplay(_ cell: AnyObject, in list: AnyObject, at indexPath: AnyObject) {
        guard let cellView = cell as? UIView, let cell = cell as? Analyzable, let listView = list as? UIView,
              let list = list as? Analyzable, let indexPath = indexPath as? IndexPath else { return }
        let state = UIKitHooks.state(of: cellView)
        AnnaCapture.cellWillDisplay(cell.analyzer, in: list.analyzer, row: indexPath.item, section: indexPath.section,
                                    facts: UIKitHooks.facts(of: cellView, in: listView), state: &state.visibility)
        state.isDisplayed = true
    }

    /// end-displaying for a list's cell.
    static func didEndDisplaying(_ cell: AnyObject, in list: AnyObject) {
        guard let cellView = cell as? UIView, let cell = cell as? Analyzable, let listView = list as? UIView else { return }
        let state = UIKitHooks.state(of: cellView)
        state.isDisplayed = false
        AnnaCapture.cellDidEndDisplaying(cell.analyzer, facts: UIKitHooks.facts(of: cellView, in: listView), state: &state.visibility)
    }
}
#endif
