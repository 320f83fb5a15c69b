#if canImport(UIKit) && !os(watchOS)
import UIKit

// Not compiled here (Linux): see the README. Installed on collection view delegates by
// `DelegateHooks`; cells must be `Analyzable` to be captured.
@MainActor enum CollectionHooks {
    static func patch(_ owner: AnyClass) {
        guard DelegateHooks.conforms(owner, to: UICollectionViewDelegate.self) else { return }
        let proto: Protocol = UICollectionViewDelegate.self
        DelegateHooks.add3(owner, #selector(UICollectionViewDelegate.collectionView(_:willDisplay:forItemAt:)), proto) { list, cell, indexPath in
            DelegateHooks.willDisplay(cell, in: list, at: indexPath)
        }
        DelegateHooks.add3(owner, #selector(UICollectionViewDelegate.collectionView(_:didEndDisplaying:forItemAt:)), proto) { list, cell, _ in
            DelegateHooks.didEndDisplaying(cell, in: list)
        }
        DelegateHooks.add2(owner, #selector(UICollectionViewDelegate.collectionView(_:didSelectItemAt:)), proto) { list, indexPath in
            guard let list = list as? UICollectionView, let indexPath = indexPath as? IndexPath,
                  let cell = list.cellForItem(at: indexPath) as? Analyzable else { return }
            AnnaCapture.didSelect(cell.analyzer)
        }
    }
}
#endif
