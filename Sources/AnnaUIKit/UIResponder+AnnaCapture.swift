#if canImport(UIKit) && !os(watchOS)
import UIKit

/// UIKit's responder chain as focus paths walk it: a view controller's parent is its
/// container (navigation, tab, split or custom), then the controller that presented
/// it, then its `next` responder; any other responder's parent is `next`. A
/// navigation controller redirects a pushed controller to the one below it, and a
/// controller redirects the controller it presented to itself, so both land under
/// what the user focused last.
///
/// The chain is read on the main thread only; an analyzer that records from another
/// thread before it found its place keeps its events until a record on the main
/// thread resolves it.
///
/// Not compiled or run on Linux, where CI runs; AnnaTesting's headless tree mirrors
/// these rules on the same capture core and is what the tests exercise.
extension UIResponder: FocusPathConstituting {
    /// The container, the presenting controller, or `next`.
    public nonisolated func parentConstitutor() -> (any FocusPathConstituting)? {
        guard Thread.isMainThread else { return nil }
        let parent: UIResponder? = MainActor.assumeIsolated {
            if let controller = self as? UIViewController {
                return controller.parent ?? controller.presentingViewController ?? controller.next
            }
            return self.next
        }
        return parent
    }

    /// The controller below a pushed one, or `self` for a presented one.
    public nonisolated func redirectedConstitutor(for child: any FocusPathConstituting) -> (any FocusPathConstituting)? {
        guard Thread.isMainThread, let child = child as? UIViewController else { return nil }
        let target: UIResponder? = MainActor.assumeIsolated {
            if let navigation = self as? UINavigationController,
               let position = navigation.viewControllers.firstIndex(of: child), position > 0 {
                return navigation.viewControllers[position - 1]
            }
            if let controller = self as? UIViewController, controller.presentedViewController === child {
                return controller
            }
            return nil
        }
        return target
    }
}

// Not compiled here (Linux): see the README. Exchanged with UIKit's methods by
// `AnnaCapture.enableAutomaticCapture()`; calling `anna_…` calls the original.
extension UIResponder {
    @objc dynamic func anna_becomeFirstResponder() -> Bool {
        let became = anna_becomeFirstResponder()
        if became, let analyzable = self as? Analyzable { AnnaCapture.didBecomeFirstResponder(analyzable.analyzer) }
        return became
    }

    @objc dynamic func anna_resignFirstResponder() -> Bool {
        let resigned = anna_resignFirstResponder()
        if resigned, let analyzable = self as? Analyzable { AnnaCapture.didResignFirstResponder(analyzable.analyzer) }
        return resigned
    }
}
#endif
