#if canImport(UIKit) && !os(watchOS)
@_spi(Capture) import AnnaFocusPaths
import ObjectiveC
import UIKit

/// Tables' and collections' cells and selections, through their delegates' own
/// implementations (``Anna/DelegateHooks``): nothing is added to a delegate's class.
extension UIKitCapture {
    nonisolated static func installListHooks() {
        // UITableView and UICollectionView redeclare `delegate` (UITableView.h,
        // UICollectionView.h) and may read what the delegate responds to when it is set:
        // their own setters are hooked, before the original runs. Hooking only wraps
        // what the delegate implements, so what it responds to never changes.
        typealias SetDelegate = @convention(c) (AnyObject, Selector, AnyObject?) -> Void
        let setDelegate = #selector(setter: UITableView.delegate)
        let lists: [(AnyClass, ListKind)] = [(UITableView.self, .table), (UICollectionView.self, .collection)]
        for (list, kind): (AnyClass, ListKind) in lists {
            MethodHooks.hook(list, setDelegate) { original in
                let call = unsafeBitCast(original, to: SetDelegate.self)
                // The setters are UI_ACTOR (UITableView.h:346, UICollectionView.h:361); an app
                // that sets a delegate off the main thread is passed through, unhooked. Only
                // the delegate's class (a Sendable metatype) crosses into the main actor.
                let block: @convention(block) (AnyObject, AnyObject?) -> Void = { receiver, delegate in
                    if let delegate, Thread.isMainThread {
                        let delegateClass: AnyClass = type(of: delegate)
                        MainActor.assumeIsolated { hookDelegate(of: delegateClass, callbacks(of: kind)) }
                    }
                    call(receiver, setDelegate, delegate)
                }
                return block
            }
        }
    }

    /// A delegate callback: its selector and what capture does with its arguments.
    struct Callback {
        let selector: Selector
        let arity: Int
        let capture: @MainActor (_ arguments: Arguments) -> Void
    }

    /// A delegate callback's arguments as the main actor receives them: the views are
    /// NS_SWIFT_UI_ACTOR classes and the index path a value, all Sendable. The
    /// delegate protocols are UI_ACTOR (UITableView.h:99, UICollectionView.h:113).
    struct Arguments: Sendable {
        /// The table or collection view.
        let list: UIView?
        /// The cell, for will-display and end-displaying.
        let cell: UIView?
        /// The row's or item's index path.
        let indexPath: IndexPath?

        init(_ list: AnyObject, _ second: AnyObject, _ third: AnyObject?) {
            self.list = list as? UIView
            cell = second as? UIView
            indexPath = (third ?? second) as? IndexPath
        }
    }

    /// A list's kind.
    enum ListKind: Sendable {
        case table, collection
    }

    /// The delegate callbacks of a kind of list.
    static func callbacks(of kind: ListKind) -> [Callback] {
        switch kind {
        case .table:
            listCallbacks(
                willDisplay: #selector(UITableViewDelegate.tableView(_:willDisplay:forRowAt:)),
                didEndDisplaying: #selector(UITableViewDelegate.tableView(_:didEndDisplaying:forRowAt:)),
                didSelect: #selector(UITableViewDelegate.tableView(_:didSelectRowAt:))
            ) { list, indexPath in (list as? UITableView)?.cellForRow(at: indexPath) }
        case .collection:
            listCallbacks(
                willDisplay: #selector(UICollectionViewDelegate.collectionView(_:willDisplay:forItemAt:)),
                didEndDisplaying: #selector(UICollectionViewDelegate.collectionView(_:didEndDisplaying:forItemAt:)),
                didSelect: #selector(UICollectionViewDelegate.collectionView(_:didSelectItemAt:))
            ) { list, indexPath in (list as? UICollectionView)?.cellForItem(at: indexPath) }
        }
    }

    /// A list's three callbacks; `cell` finds the selected row's cell.
    private static func listCallbacks(
        willDisplay: Selector, didEndDisplaying: Selector, didSelect: Selector,
        cell: @escaping @MainActor (UIView, IndexPath) -> UIView?
    ) -> [Callback] { [
        Callback(selector: willDisplay, arity: 3) { arguments in UIKitCapture.willDisplay(arguments) },
        Callback(selector: didEndDisplaying, arity: 3) { arguments in UIKitCapture.didEndDisplaying(arguments) },
        Callback(selector: didSelect, arity: 2) { arguments in
            guard let list = arguments.list, let indexPath = arguments.indexPath,
                  let selected = cell(list, indexPath) else { return }
            UIKitCapture.didSelect(selected, in: list, at: indexPath)
        },
    ] }

    /// Wraps, once, the implementations of `callbacks` that objects of `type` use.
    static func hookDelegate(of type: AnyClass, _ callbacks: [Callback]) {
        for callback in callbacks {
            _ = delegateHooks.hook(callback.selector, for: ObjCClass(type: type), in: ObjCRuntime()) { original in
                imp_implementationWithBlock(wrapper(callback, original))
            }
        }
    }

    /// The block that records, once per fact, then calls the delegate's implementation
    /// with the same arguments.
    nonisolated private static func wrapper(_ callback: Callback, _ original: IMP) -> Any {
        let selector = callback.selector
        if callback.arity == 2 {
            typealias Two = @convention(c) (AnyObject, Selector, AnyObject, AnyObject) -> Void
            let call = unsafeBitCast(original, to: Two.self)
            let block: @convention(block) (AnyObject, AnyObject, AnyObject) -> Void = { receiver, list, second in
                guard isRecording else { return call(receiver, selector, list, second) }
                let arguments = Arguments(list, second, nil)
                once(receiver, NSStringFromSelector(selector), { callback.capture(arguments) },
                     around: { call(receiver, selector, list, second) })
            }
            return block
        }
        typealias Three = @convention(c) (AnyObject, Selector, AnyObject, AnyObject, AnyObject) -> Void
        let call = unsafeBitCast(original, to: Three.self)
        let block: @convention(block) (AnyObject, AnyObject, AnyObject, AnyObject) -> Void = { receiver, list, second, third in
            guard isRecording else { return call(receiver, selector, list, second, third) }
            let arguments = Arguments(list, second, third)
            once(receiver, NSStringFromSelector(selector), { callback.capture(arguments) },
                 around: { call(receiver, selector, list, second, third) })
        }
        return block
    }

    // MARK: What capture does

    /// will-display: the cell takes its place under the list and appears by its facts.
    static func willDisplay(_ arguments: Arguments) {
        guard let cellView = arguments.cell, let listView = arguments.list,
              let listAnalyzer = listView.existingAnalyzer, listAnalyzer.isEnabled,
              let indexPath = arguments.indexPath else { return }
        let cellState = state(of: cellView)
        cellState.isDisplayed = true
        AnnaCapture.cellWillDisplay(cellView.analyzer, in: listAnalyzer, row: indexPath.item, section: indexPath.section,
                                    facts: facts(of: cellView, in: listView), state: &cellState.visibility)
    }

    /// end-displaying.
    static func didEndDisplaying(_ arguments: Arguments) {
        guard let cellView = arguments.cell, let listView = arguments.list,
              let analyzer = cellView.existingAnalyzer else { return }
        let cellState = state(of: cellView)
        cellState.isDisplayed = false
        AnnaCapture.cellDidEndDisplaying(analyzer, facts: facts(of: cellView, in: listView), state: &cellState.visibility)
    }

    /// A selection: the cell is placed (if no will-display did), focused, and records.
    static func didSelect(_ cell: UIView, in list: UIView, at indexPath: IndexPath) {
        guard let listAnalyzer = list.existingAnalyzer, listAnalyzer.isEnabled else { return }
        AnnaCapture.rowDidSelect(cell.analyzer, in: listAnalyzer, row: indexPath.item, section: indexPath.section)
    }
}
#endif
