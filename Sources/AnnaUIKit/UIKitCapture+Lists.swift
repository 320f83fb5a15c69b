#if canImport(UIKit) && !os(watchOS)
@_spi(Capture) import Anna
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
        for (list, kind) in lists {
            MethodHooks.hook(list, setDelegate) { original in
                let call = unsafeBitCast(original, to: SetDelegate.self)
                let block: @convention(block) (AnyObject, AnyObject?) -> Void = { receiver, delegate in
                    if let delegate, Thread.isMainThread {
                        MainActor.assumeIsolated { hookDelegate(of: type(of: delegate), callbacks(of: kind)) }
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
        let capture: @MainActor (_ list: AnyObject, _ second: AnyObject, _ third: AnyObject?) -> Void
    }

    /// A list's kind.
    enum ListKind: Sendable {
        case table, collection
    }

    /// The delegate callbacks of a kind of list.
    static func callbacks(of kind: ListKind) -> [Callback] {
        switch kind {
        case .table: tableCallbacks
        case .collection: collectionCallbacks
        }
    }

    static var tableCallbacks: [Callback] { [
        Callback(selector: #selector(UITableViewDelegate.tableView(_:willDisplay:forRowAt:)), arity: 3) { list, cell, place in
            willDisplay(cell, in: list, at: place)
        },
        Callback(selector: #selector(UITableViewDelegate.tableView(_:didEndDisplaying:forRowAt:)), arity: 3) { list, cell, _ in
            didEndDisplaying(cell, in: list)
        },
        Callback(selector: #selector(UITableViewDelegate.tableView(_:didSelectRowAt:)), arity: 2) { list, place, _ in
            guard let table = list as? UITableView, let indexPath = place as? IndexPath,
                  let cell = table.cellForRow(at: indexPath) else { return }
            didSelect(cell, in: table, at: indexPath)
        },
    ] }

    static var collectionCallbacks: [Callback] { [
        Callback(selector: #selector(UICollectionViewDelegate.collectionView(_:willDisplay:forItemAt:)), arity: 3) { list, cell, place in
            willDisplay(cell, in: list, at: place)
        },
        Callback(selector: #selector(UICollectionViewDelegate.collectionView(_:didEndDisplaying:forItemAt:)), arity: 3) { list, cell, _ in
            didEndDisplaying(cell, in: list)
        },
        Callback(selector: #selector(UICollectionViewDelegate.collectionView(_:didSelectItemAt:)), arity: 2) { list, place, _ in
            guard let collection = list as? UICollectionView, let indexPath = place as? IndexPath,
                  let cell = collection.cellForItem(at: indexPath) else { return }
            didSelect(cell, in: collection, at: indexPath)
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
                MainActor.assumeIsolated {
                    once(receiver, NSStringFromSelector(selector), { callback.capture(list, second, nil) },
                         around: { call(receiver, selector, list, second) })
                }
            }
            return block
        }
        typealias Three = @convention(c) (AnyObject, Selector, AnyObject, AnyObject, AnyObject) -> Void
        let call = unsafeBitCast(original, to: Three.self)
        let block: @convention(block) (AnyObject, AnyObject, AnyObject, AnyObject) -> Void = { receiver, list, second, third in
            guard isRecording else { return call(receiver, selector, list, second, third) }
            MainActor.assumeIsolated {
                once(receiver, NSStringFromSelector(selector), { callback.capture(list, second, third) },
                     around: { call(receiver, selector, list, second, third) })
            }
        }
        return block
    }

    // MARK: What capture does

    /// will-display: the cell takes its place under the list and appears by its facts.
    static func willDisplay(_ cell: AnyObject, in list: AnyObject, at place: AnyObject?) {
        guard let cellView = cell as? UIView, let listView = list as? UIView,
              let listAnalyzer = listView.existingAnalyzer, listAnalyzer.isEnabled,
              let indexPath = place as? IndexPath else { return }
        let cellState = state(of: cellView)
        cellState.isDisplayed = true
        AnnaCapture.cellWillDisplay(cellView.analyzer, in: listAnalyzer, row: indexPath.item, section: indexPath.section,
                                    facts: facts(of: cellView, in: listView), state: &cellState.visibility)
    }

    /// end-displaying.
    static func didEndDisplaying(_ cell: AnyObject, in list: AnyObject) {
        guard let cellView = cell as? UIView, let listView = list as? UIView,
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
