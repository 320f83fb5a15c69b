/// A declarative view's place on the focus path: what SwiftUI's `.analyzer(_:)`
/// modifier keeps for a view, and what it hands down to the views inside through the
/// environment.
///
/// - A scope placed ``Placement/inside`` is its parent scope's sub analyzer: keyed by
///   its name, with an index (a `ForEach` row) and section when given.
/// - A scope placed ``Placement/pushed`` (a `NavigationStack` destination, a sheet)
///   names itself and walks up from its parent scope; the parent redirects it to
///   itself, so it lands under what was focused last below the parent: the row that
///   was tapped, as a pushed view controller does on UIKit.
/// - ``root(_:)`` holds the manager's ``RootAnalyzer``.
///
/// Taps, selections and appearance go through ``AnnaCapture`` like UIKit's facts.
/// Thread-safety: the scope's own fields are set at creation and never change; its
/// analyzer may be used from any thread.
public final class AnalyzerScope: Analyzable, Sendable {
    /// How a scope is placed under its parent.
    public enum Placement: Sendable, Hashable {
        /// A sub analyzer of the parent scope's analyzer.
        case inside
        /// A screen shown from the parent (pushed or presented): under what the parent
        /// last saw focused.
        case pushed
    }

    /// The scope's analyzer.
    public let analyzer: Analyzer
    /// The scope the view is in; `nil` for a root.
    public let parent: AnalyzerScope?
    /// The name on the path.
    public let name: String
    /// The row index, for a `ForEach` row.
    public let index: Int?
    /// The section, for a sectioned list's row.
    public let section: Int?
    /// How it is placed.
    public let placement: Placement

    /// Creates a scope under a parent and puts its analyzer in place.
    /// - Parameters:
    ///   - name: The name on the path.
    ///   - parent: The enclosing scope; without one the analyzer has no place until
    ///     a scope with a root is above it.
    ///   - index: The row index for a `ForEach` row.
    ///   - section: The section for a sectioned list's row.
    ///   - placement: Inside the parent (default) or shown from it.
    public init(name: String, parent: AnalyzerScope?, index: Int? = nil, section: Int? = nil, placement: Placement = .inside) {
        self.name = name
        self.parent = parent
        self.index = index
        self.section = section
        self.placement = placement
        self.link = Link(parent: parent, placement: placement)
        self.analyzer = Analyzer(owner: link)
        switch placement {
        case .inside:
            if let parent {
                if let index {
                    parent.analyzer.setSubAnalyzer(analyzer, for: name, index: index, section: section)
                } else {
                    parent.analyzer.setSubAnalyzer(analyzer, for: name)
                }
            } else {
                analyzer.enable(naming: name)
            }
        case .pushed:
            analyzer.enable(naming: name)
        }
    }

    private init(root: RootAnalyzer) {
        name = ""
        parent = nil
        index = nil
        section = nil
        placement = .inside
        link = Link(parent: nil, placement: .inside)
        analyzer = root
    }

    /// The analyzer's owner: where its walk up starts. A separate object because the
    /// analyzer is created before the scope can hand out `self`.
    private final class Link: FocusPathConstituting, Sendable {
        let parent: AnalyzerScope?
        let placement: Placement
        init(parent: AnalyzerScope?, placement: Placement) {
            self.parent = parent
            self.placement = placement
        }
        func parentConstitutor() -> (any FocusPathConstituting)? { parent }
    }

    private let link: Link

    /// The scope at the top of an app's views, holding the manager's root analyzer.
    public static func root(_ manager: Manager) -> AnalyzerScope {
        AnalyzerScope(root: RootAnalyzer(manager: manager))
    }

    /// The parent scope.
    public func parentConstitutor() -> (any FocusPathConstituting)? { parent }

    /// A scope shown from this one lands under what this one last saw focused.
    public func redirectedConstitutor(for child: any FocusPathConstituting) -> (any FocusPathConstituting)? {
        guard let child = child as? Link, child.parent === self, child.placement == .pushed else { return nil }
        return self
    }

    /// The scope to keep for a view: `existing` when it has the same place, otherwise a
    /// new one. SwiftUI recomputes a view's body often; its scope must only change when
    /// its parent, name, index, section or placement did.
    public static func reusing(
        _ existing: AnalyzerScope?, name: String, parent: AnalyzerScope?, index: Int? = nil, section: Int? = nil,
        placement: Placement = .inside
    ) -> AnalyzerScope {
        if let existing, existing.parent === parent, existing.name == name, existing.index == index,
           existing.section == section, existing.placement == placement {
            return existing
        }
        return AnalyzerScope(name: name, parent: parent, index: index, section: section, placement: placement)
    }

    /// The view appeared (`onAppear`).
    public func appeared() { AnnaCapture.screenDidAppear(analyzer) }
    /// The view disappeared (`onDisappear`).
    public func disappeared() { AnnaCapture.screenDidDisappear(analyzer) }
    /// The view was tapped: it is focused, and records ``FocusEvent/Name/didEndTouch``
    /// and ``FocusEvent/Name/targetAction``, as a UIKit button does.
    public func tapped() {
        AnnaCapture.touchDidEnd(analyzer)
        AnnaCapture.targetAction(analyzer)
    }
    /// The row was selected: it is focused and records ``FocusEvent/Name/didSelect``.
    public func selected() { AnnaCapture.didSelect(analyzer) }
}
