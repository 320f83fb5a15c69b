#if canImport(UIKit) && !os(watchOS)
import UIKit

// Not compiled here (Linux): see the README. Installed on table view delegates by
// `DelegateHooks`; cells must be `Analyzable` to be captured.
@MainActor enum TableHooks {
    static func patch(_ owner: AnyClass) {
        guard DelegateHooks.conforms(owner, to: UITableViewDelegate.self) else { return }
        let proto: Protocol = UITableViewDelegate.self
        DelegateHooks.add3(owner, #selector(UITableViewDelegate.tableView(_:willDisplay:forRowAt:)), proto) { table, cell, indexPath in
            DelegateHooks.willDisplay(cell, in: table, at: indexPath)
        }
        DelegateHooks.add3(owner, #selector(UITableViewDelegate.tableView(_:didEndDisplaying:forRowAt:)), proto) { table, cell, _ in
            DelegateHooks.didEndDisplaying(cell, in: table)
        }
        DelegateHooks.add2(owner, #selector(UITableViewDelegate.tableView(_:didSelectRowAt:)), proto) { table, indexPath in
            guard let table = table as? UITableView, let indexPath = indexPath as? IndexPath,
                  let cell = table.cellForRow(at: indexPath) as? Analyzable else { return }
            AnnaCapture.didSelect(cell.analyzer)
        }
    }
}
#endif
