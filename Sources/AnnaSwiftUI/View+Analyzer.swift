#if canImport(SwiftUI)
import Anna
import AnnaFocusPaths
import SwiftUI

// Built empty on Linux, compiled for iOS by scripts/check-apple-sdk.sh; written against
// SwiftUI's interface as the iOS 17 and 18 SDKs declare it (View and ViewModifier are main-actor protocols with the Swift 6 SDKs;
// the modifiers used here are nonisolated); see the README's "What has been compiled
// where". The modifiers only keep an `AnalyzerScope` per view and forward to it; the
// rules are in the capture core and tested on the headless tree.

private struct AnalyzerScopeKey: EnvironmentKey {
    static let defaultValue: AnalyzerScope? = nil
}

extension EnvironmentValues {
    /// The scope of the nearest enclosing view with an analyzer.
    public var analyzerScope: AnalyzerScope? {
        get { self[AnalyzerScopeKey.self] }
        set { self[AnalyzerScopeKey.self] = newValue }
    }
}

/// What a tap on a view with an analyzer records.
public enum AnalyzerTapRecording: Sendable, Hashable {
    /// Nothing.
    case none
    /// A control's action: focus, `did-end-touch`, `target-action`.
    case action
    /// A row's selection: focus, `did-select`.
    case selection
}

/// Keeps a view's scope across body updates.
private final class ScopeHolder {
    var scope: AnalyzerScope?
}

private struct AnalyzerModifier: ViewModifier {
    let name: String
    let index: Int?
    let section: Int?
    let placement: AnalyzerScope.Placement
    let taps: AnalyzerTapRecording
    @Environment(\.analyzerScope) private var parent
    @State private var holder = ScopeHolder()

    func body(content: Content) -> some View {
        let scope = AnalyzerScope.reusing(
            holder.scope, name: name, parent: parent, index: index, section: section, placement: placement)
        holder.scope = scope
        return content
            .environment(\.analyzerScope, scope)
            .onAppear { scope.appeared() }
            .onDisappear { scope.disappeared() }
            .simultaneousGesture(TapGesture().onEnded {
                switch taps {
                case .none: break
                case .action: scope.tapped()
                case .selection: scope.selected()
                }
            }, including: taps == .none ? .subviews : .all)
    }
}

private struct AnalyzerRootModifier: ViewModifier {
    let manager: Manager
    @State private var holder = ScopeHolder()

    func body(content: Content) -> some View {
        let scope = holder.scope ?? AnalyzerScope.root(manager)
        holder.scope = scope
        return content.environment(\.analyzerScope, scope)
    }
}

extension View {
    /// Puts the manager's root analyzer above this view (the app's top view).
    public func analyzerRoot(_ manager: Manager) -> some View {
        modifier(AnalyzerRootModifier(manager: manager))
    }

    /// Gives the view an analyzer named `name` under the enclosing view's analyzer, and
    /// records its appearance and, if asked, its taps.
    ///
    /// ```swift
    /// List {
    ///     ForEach(Array(products.enumerated()), id: \.element.id) { index, product in
    ///         NavigationLink(value: product) { ProductRow(product) }
    ///             .analyzer("row", index: index, taps: .selection)
    ///     }
    /// }
    /// .analyzer("products")
    /// .navigationDestination(for: Product.self) { ProductView($0).analyzer("detail", placement: .pushed) }
    /// ```
    /// The pushed `detail` lands under the row that was tapped: `/products/row/detail`.
    /// - Parameters:
    ///   - name: The name on the path.
    ///   - index: A `ForEach` row's index.
    ///   - section: A sectioned list's section.
    ///   - placement: ``AnalyzerScope/Placement/pushed`` for a navigation destination or a sheet.
    ///   - taps: What a tap records.
    public func analyzer(
        _ name: String, index: Int? = nil, section: Int? = nil,
        placement: AnalyzerScope.Placement = .inside, taps: AnalyzerTapRecording = .none
    ) -> some View {
        modifier(AnalyzerModifier(name: name, index: index, section: section, placement: placement, taps: taps))
    }
}
#endif
