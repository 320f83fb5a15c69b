/// The parts of a class-based runtime that delegate hooks need: Objective-C's on Apple
/// platforms (a few lines over `class_copyMethodList` and `method_setImplementation`),
/// AnnaTesting's headless classes in tests. Both run the one algorithm in
/// ``DelegateHooks``.
package protocol DelegateHookRuntime {
    /// A class.
    associatedtype Class: Hashable
    /// A method's name.
    associatedtype Selector: Hashable
    /// A method's implementation.
    associatedtype Implementation

    /// The class's superclass, `nil` at the root.
    func superclass(of type: Class) -> Class?
    /// The implementation the class itself defines for `selector` (not an inherited one).
    func ownImplementation(of selector: Selector, in type: Class) -> Implementation?
    /// Replaces the implementation the class itself defines for `selector`.
    func replaceOwnImplementation(of selector: Selector, in type: Class, with implementation: Implementation)
}

/// How automatic capture hooks the callbacks of an app's delegates (a table's
/// `didSelectRowAt`, a collection's `willDisplay`), so that it never changes what the
/// delegates receive:
///
/// - **Never add a method.** A delegate class that does not implement a callback is
///   left alone: adding one would change what it `responds(to:)`, and forwarding
///   proxies (RxCocoa's `DelegateProxy`, IGListKit's, WebKit's) would answer the
///   callback themselves instead of forwarding it, so the app's own implementation
///   would silently stop being called. Such callbacks are not captured; the app can
///   call ``AnnaCapture`` itself.
/// - **Wrap the implementation where it is defined, once.** The class that defines the
///   implementation a delegate uses (its own class or a superclass) gets a wrapper
///   that records, then calls the original with the same arguments. A class is never
///   wrapped twice, so a hook never calls a hook of its own.
/// - **One fact records once.** A subclass's wrapped implementation that calls its
///   superclass's wrapped implementation records once: wrappers ask
///   ``CaptureCallNesting`` before recording.
package struct DelegateHooks<Runtime: DelegateHookRuntime> {
    /// What ``hook(_:for:in:wrap:)`` did.
    package enum Outcome: Equatable, Sendable {
        /// The implementation defined on the class at `depth` above the delegate's (0:
        /// the delegate's own class) was wrapped now.
        case wrapped(depth: Int)
        /// It was wrapped before.
        case alreadyWrapped
        /// No class in the chain implements the callback: nothing was added.
        case notImplemented
    }

    private struct Site: Hashable {
        let type: Runtime.Class
        let selector: Runtime.Selector
    }

    private var wrapped: Set<Site> = []

    package init() {}

    /// Hooks `selector` for a delegate of class `type`: wraps the implementation the
    /// class uses, at the class that defines it, unless already wrapped.
    /// - Parameters:
    ///   - selector: The callback.
    ///   - type: The delegate's class.
    ///   - runtime: The runtime that holds the classes.
    ///   - wrap: Makes the wrapper of an original implementation.
    /// - Returns: What was done.
    package mutating func hook(
        _ selector: Runtime.Selector, for type: Runtime.Class, in runtime: Runtime,
        wrap: (Runtime.Implementation) -> Runtime.Implementation
    ) -> Outcome {
        var current: Runtime.Class? = type
        var depth = 0
        while let candidate = current {
            if let original = runtime.ownImplementation(of: selector, in: candidate) {
                guard wrapped.insert(Site(type: candidate, selector: selector)).inserted else { return .alreadyWrapped }
                runtime.replaceOwnImplementation(of: selector, in: candidate, with: wrap(original))
                return .wrapped(depth: depth)
            }
            current = runtime.superclass(of: candidate)
            depth += 1
        }
        return .notImplemented
    }

    /// Whether the implementation `type` itself defines for `selector` was wrapped.
    package func isWrapped(_ selector: Runtime.Selector, definedIn type: Runtime.Class) -> Bool {
        wrapped.contains(Site(type: type, selector: selector))
    }
}
