@_spi(Capture) import AnnaFocusPaths

/// A view. Its parent is its screen when it is the screen's root view, otherwise its
/// superview. Whether it has appeared is decided by the capture core from its facts
/// (``AnnaFocusPaths/ViewFacts``: in a window, not hidden, its screen visible), as on UIKit.
open class HeadlessView: HeadlessResponder {
    /// The superview.
    public private(set) weak var superview: HeadlessView?
    /// The subviews.
    public private(set) var subviews: [HeadlessView] = []
    weak var screen: HeadlessScreen?
    private var visibility = ViewVisibility()
    /// Hidden views and their subviews do not appear; hiding a visible view makes it disappear.
    public var isHidden = false {
        didSet { if isHidden != oldValue { refreshVisibility() } }
    }
    /// Whether the view is on screen.
    public var isVisible: Bool { visibility.isAppeared }

    /// Creates a view.
    public override init() { super.init() }

    public override func parentConstitutor() -> (any FocusPathConstituting)? {
        screen ?? superview
    }

    /// For a list's cell: between will-display and end-displaying.
    var isDisplayedByList = true

    /// The view's facts now.
    @_spi(Capture) public var facts: ViewFacts {
        let owner = owningScreen
        return ViewFacts(
            isInWindow: owner?.isInWindow ?? false,
            isHidden: isHidden || (superview?.facts.isHidden ?? false),
            isScreenVisible: owner?.isVisible ?? false,
            isDisplayed: isDisplayedByList)
    }

    var owningScreen: HeadlessScreen? { screen ?? superview?.owningScreen }

    /// Adds a subview; it appears at once if this view is visible.
    public func addSubview(_ view: HeadlessView) {
        view.removeFromSuperview()
        view.superview = self
        subviews.append(view)
        view.refreshVisibility()
    }

    /// Removes the view from its superview; it disappears.
    public func removeFromSuperview() {
        guard let superview else { return }
        superview.subviews.removeAll { $0 === self }
        self.superview = nil
        refreshVisibility()
    }

    /// Hands the facts to the capture core: a view appears before its subviews and
    /// disappears after them.
    func refreshVisibility() {
        let facts = facts
        if facts.isAppeared {
            AnnaCapture.viewFactsChanged(facts, state: &visibility, analyzer: analyzer)
            for view in subviews { view.refreshVisibility() }
        } else {
            for view in subviews { view.refreshVisibility() }
            AnnaCapture.viewFactsChanged(facts, state: &visibility, analyzer: analyzer)
        }
    }

    /// `willDisplay` on this view as a cell of `list`.
    func willDisplay(in list: HeadlessList, row: Int, section: Int) {
        isDisplayedByList = true
        AnnaCapture.cellWillDisplay(
            analyzer, in: list.analyzer, key: list.cellKey, row: row, section: section, facts: facts, state: &visibility)
        for view in subviews { view.refreshVisibility() }
    }

    /// `didEndDisplaying` on this view as a cell.
    func didEndDisplaying() {
        isDisplayedByList = false
        for view in subviews { view.refreshVisibility() }
        AnnaCapture.cellDidEndDisplaying(analyzer, facts: facts, state: &visibility)
    }
}

/// A scroll view: dragging it records ``AnnaFocusPaths/FocusEvent/Name/didBeginScroll``.
open class HeadlessScrollView: HeadlessView {
    /// The user began dragging the content (`scrollViewWillBeginDragging`).
    public func beginScrolling() {
        AnnaCapture.scrollDidBegin(analyzer)
    }
}

/// A text field: it becomes and resigns the window's first responder.
public final class HeadlessTextField: HeadlessView {
    /// Makes the field the first responder; the previous one resigns first.
    public func becomeFirstResponder() {
        guard let window = owningScreen?.rootWindow else { return }
        window.makeFirstResponder(self)
    }

    /// Resigns the first responder; records only if the field was it (UIKit's
    /// `resignFirstResponder` returns `true` either way).
    public func resignFirstResponder() {
        guard let window = owningScreen?.rootWindow, window.firstResponder === self else {
            AnnaCapture.resignFirstResponderReturned(analyzer, wasFirstResponder: false, isFirstResponder: false)
            return
        }
        window.makeFirstResponder(nil)
    }

    /// Whether the field is the first responder.
    public var isFirstResponder: Bool { owningScreen?.rootWindow?.firstResponder === self }
}
