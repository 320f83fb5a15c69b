@_spi(Capture) import AnnaFocusPaths
import Foundation
import Testing

/// Stands for UIKit's responders, which the SDK marks `NS_SWIFT_UI_ACTOR` (main-actor
/// classes in Swift 6). AnnaUIKit gives `UIResponder` the same nonisolated members as
/// this class's extension (its analyzer is an associated object there); compiling this
/// file in Swift 6 mode on Linux checks that main-actor classes adopt ``Analyzable``
/// and ``AnalyzableObject`` without declaring an analyzer and without isolation errors,
/// which a main-actor `lazy var analyzer` cannot do.
@MainActor class MainActorResponder {
    nonisolated let parent: MainActorResponder?
    nonisolated fileprivate let storage = AnalyzerBox()

    nonisolated init(parent: MainActorResponder? = nil) {
        self.parent = parent
    }

    /// Makes this responder the top of the chain (AnnaUIKit's `useRootAnalyzer(of:)`).
    nonisolated func useRootAnalyzer(of manager: Manager) {
        storage.set(RootAnalyzer(manager: manager, owner: self))
    }
}

/// The analyzer of a responder: made on first use, behind a lock.
final class AnalyzerBox: @unchecked Sendable {
    private let lock = NSLock()
    // Guarded by `lock`.
    private var analyzer: Analyzer?

    func get(owner: MainActorResponder, making: Bool) -> Analyzer? {
        lock.withLock {
            if analyzer == nil, making { analyzer = Analyzer(owner: owner) }
            return analyzer
        }
    }

    func set(_ analyzer: Analyzer) {
        lock.withLock { self.analyzer = analyzer }
    }
}

extension MainActorResponder: Analyzable {
    nonisolated var analyzer: Analyzer { storage.get(owner: self, making: true) ?? Analyzer(owner: self) }
    nonisolated var existingAnalyzer: Analyzer? { storage.get(owner: self, making: false) }
    nonisolated func parentConstitutor() -> (any FocusPathConstituting)? { parent }
}

/// An app's cell: adopts nothing and declares nothing.
final class ItemCell: MainActorResponder {}

/// An app's screen exposing a sub analyzer by key, as the README shows for UIKit.
final class ItemsController: MainActorResponder, AnalyzableObject {
    nonisolated static let subAnalyzableKeys: Set<String> = ["list"]
    nonisolated let list = ItemCell()
}

@Suite struct MainActorConformanceTests {
    @MainActor @Test func mainActorClassesUseTheirAnalyzersFromAnyContext() async {
        let manager = Manager(service: nil)
        let application = MainActorResponder()
        application.useRootAnalyzer(of: manager)
        let controller = ItemsController(parent: application)
        let cell = ItemCell(parent: controller)
        #expect(cell.existingAnalyzer == nil)                 // nothing made until used
        controller.analyzer.enable(naming: "items")
        AnnaCapture.attachSubAnalyzers(of: controller)
        #expect(controller.list.existingAnalyzer != nil)      // attached through subAnalyzableKeys
        cell.analyzer.enable(naming: "cell")
        // From a nonisolated context, as the manager's walks and tasks read them.
        let path = await Task.detached { [cell] in (cell as any Analyzable).analyzer.path }.value
        #expect(path == "/items/cell")
        #expect(controller.list.analyzer.path == "/items/list")
    }
}
