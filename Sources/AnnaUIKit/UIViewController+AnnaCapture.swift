#if canImport(UIKit) && !os(watchOS)
import UIKit

// Not compiled here (Linux): see the README. Exchanged with UIKit's methods by
// `AnnaCapture.enableAutomaticCapture()`; calling `anna_…` calls the original.
extension UIViewController {
    @objc dynamic func anna_viewDidAppear(_ animated: Bool) {
        anna_viewDidAppear(animated)
        UIKitHooks.state(of: self).isScreenVisible = true
        if let object = self as? any AnalyzableObject { AnnaCapture.attachSubAnalyzers(of: object) }
        if let analyzable = self as? Analyzable { AnnaCapture.screenDidAppear(analyzable.analyzer) }
        if let view = viewIfLoaded { UIKitHooks.refreshViews(under: view) }
    }

    @objc dynamic func anna_viewDidDisappear(_ animated: Bool) {
        anna_viewDidDisappear(animated)
        UIKitHooks.state(of: self).isScreenVisible = false
        if let view = viewIfLoaded { UIKitHooks.refreshViews(under: view) }
        if let analyzable = self as? Analyzable { AnnaCapture.screenDidDisappear(analyzable.analyzer) }
    }
}
#endif
