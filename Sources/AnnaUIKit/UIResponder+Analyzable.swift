#if canImport(UIKit) && !os(watchOS)
@_spi(Capture) import AnnaFocusPaths
import ObjectiveC
import UIKit

/// Every responder can have an analyzer, as in the original Anna: a view, a view
/// controller, a cell or a control records once its analyzer is named
/// (``AnnaFocusPaths/Analyzer/enable(naming:)``) or added as a sub analyzer; until then it costs
/// nothing, and no analyzer is made for it.
///
/// ```swift
/// final class MasterViewController: UITableViewController {
///     override func viewDidLoad() {
///         super.viewDidLoad()
///         analyzer.setSubAnalyzer(tableView.analyzer, for: "tableView")
///         analyzer.enable(naming: "master")
///     }
/// }
/// ```
/// The members are nonisolated, so that main-actor classes conform in Swift 6 without
/// declaring anything (a main-actor `lazy var analyzer` could not satisfy the protocol).
///
/// Focus paths walk UIKit's responder chain: a view controller's parent is its
/// container (navigation, tab, split or custom), then the controller `present` was
/// called on, then its `next`; any other responder's parent is `next`. A navigation
/// controller redirects a pushed controller to the one below it, and a controller
/// redirects the controller it presented to itself, so both land under what the user
/// focused last. The chain is read on the main thread only; an analyzer that records
/// from another thread before it found its place keeps its events until a record on
/// the main thread resolves it.
extension UIResponder: Analyzable {
    /// The responder's analyzer, made on first use and kept as long as the responder.
    public nonisolated var analyzer: Analyzer {
        ResponderAnalyzers.analyzer(of: self)
    }

    /// The responder's analyzer if one was made.
    public nonisolated var existingAnalyzer: Analyzer? {
        ResponderAnalyzers.existingAnalyzer(of: self)
    }

    /// Makes this responder the top of the focus paths: its analyzer becomes the
    /// manager's ``AnnaFocusPaths/RootAnalyzer``. Call it on the application delegate (or the
    /// application) at launch.
    /// - Parameter manager: The focus-path manager.
    public nonisolated func useRootAnalyzer(of manager: Manager) {
        ResponderAnalyzers.set(RootAnalyzer(manager: manager, owner: self), on: self)
    }

    /// The container, the presenting controller, or `next`.
    public nonisolated func parentConstitutor() -> (any FocusPathConstituting)? {
        guard Thread.isMainThread else { return nil }
        let parent: UIResponder? = MainActor.assumeIsolated {
            if let controller = self as? UIViewController {
                return controller.parent ?? UIKitCapture.presenter(of: controller)
                    ?? controller.presentingViewController ?? controller.next
            }
            return self.next
        }
        return parent
    }

    /// The controller below a pushed one, or `self` for a controller it presented.
    public nonisolated func redirectedConstitutor(for child: any FocusPathConstituting) -> (any FocusPathConstituting)? {
        guard Thread.isMainThread, let child = child as? UIViewController else { return nil }
        let target: UIResponder? = MainActor.assumeIsolated {
            if let navigation = self as? UINavigationController,
               let position = navigation.viewControllers.firstIndex(of: child), position > 0 {
                return navigation.viewControllers[position - 1]
            }
            if let controller = self as? UIViewController,
               controller.presentedViewController === child || UIKitCapture.presenter(of: child) === controller {
                return controller
            }
            return nil
        }
        return target
    }
}

/// The analyzers of responders, as associated objects. Creation is behind a lock:
/// analyzers are read from any thread.
enum ResponderAnalyzers {
    // The key's address identifies the association; the pointer is never written.
    nonisolated(unsafe) private static let key = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)
    private static let creation = LockedState(())

    static func existingAnalyzer(of responder: UIResponder) -> Analyzer? {
        objc_getAssociatedObject(responder, key) as? Analyzer
    }

    static func analyzer(of responder: UIResponder) -> Analyzer {
        if let analyzer = existingAnalyzer(of: responder) { return analyzer }
        return creation.withLock { _ in
            if let analyzer = existingAnalyzer(of: responder) { return analyzer }
            let analyzer = Analyzer(owner: responder)
            objc_setAssociatedObject(responder, key, analyzer, .OBJC_ASSOCIATION_RETAIN)
            return analyzer
        }
    }

    static func set(_ analyzer: Analyzer, on responder: UIResponder) {
        creation.withLock { _ in objc_setAssociatedObject(responder, key, analyzer, .OBJC_ASSOCIATION_RETAIN) }
    }
}

extension AnalyzableObject where Self: NSObject {
    /// The object's Objective-C property named `key` (a view controller's `tableView`),
    /// through key-value coding; `nil` when it has no such property.
    public func subAnalyzable(forKey key: String) -> (any Analyzable)? {
        guard responds(to: NSSelectorFromString(key)) else { return nil }
        return value(forKey: key) as? any Analyzable
    }
}
#endif
