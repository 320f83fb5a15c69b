/// An object on the responder chain that focus paths walk: a view, a screen, a
/// container, the window, the application delegate.
///
/// An analyzer that no super analyzer added looks for its parent by walking up
/// ``parentConstitutor()``. At each step the parent may redirect the walk with
/// ``redirectedConstitutor(for:)``: a navigation container sends a pushed screen to the
/// screen below it, a screen sends a screen it presented to itself. When the walk
/// arrives at an analyzer through a redirect, it continues at the object that
/// analyzer last saw focused, so a detail screen pushed after a cell was selected
/// lands under the cell: `master/tableView/cell/detail`.
///
/// UIKit's responders adopt it on Apple platforms (`next`); tests and other
/// platforms use plain objects such as AnnaTesting's headless responders.
public protocol FocusPathConstituting: AnyObject {
    /// The next object up the chain, `nil` at the top.
    func parentConstitutor() -> (any FocusPathConstituting)?
    /// Where the walk should go instead of this object, coming up from `child`;
    /// `nil` to stay. Return `self` to make the walk continue at the object this
    /// object's analyzer last saw focused.
    func redirectedConstitutor(for child: any FocusPathConstituting) -> (any FocusPathConstituting)?
}

extension FocusPathConstituting {
    /// No redirect.
    public func redirectedConstitutor(for child: any FocusPathConstituting) -> (any FocusPathConstituting)? { nil }
}

/// An object with an analyzer: what the walk up the responder chain looks for.
///
/// The requirements are nonisolated: analyzers are used from any thread. A main-actor
/// class (a UIKit view or view controller) therefore does not declare its own
/// `analyzer` property, which would be main-actor isolated and could not satisfy
/// them in Swift 6: AnnaUIKit gives every `UIResponder` one.
public protocol Analyzable: FocusPathConstituting {
    /// The object's analyzer.
    var analyzer: Analyzer { get }
    /// The analyzer if the object has made one, without making it: what walks up the
    /// responder chain read, so that they create no analyzer for objects nobody
    /// analyzes. The object's ``analyzer`` by default.
    var existingAnalyzer: Analyzer? { get }
}

extension Analyzable {
    /// The object's ``analyzer``.
    public var existingAnalyzer: Analyzer? { analyzer }
}
