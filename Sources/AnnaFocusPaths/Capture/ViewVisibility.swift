/// What a view's appearance depends on, as the platform reports it.
///
/// A view counts as appeared when it is in a window, is not hidden (nor any view
/// above it) and its screen is visible (between `viewDidAppear` and `viewDidDisappear`);
/// a list's cell also only between will-display and end-displaying.
@_spi(Capture) public struct ViewFacts: Sendable, Hashable {
    /// The view is in a window.
    public var isInWindow: Bool
    /// The view or one of its superviews is hidden.
    public var isHidden: Bool
    /// The view's screen is on screen.
    public var isScreenVisible: Bool
    /// For a list's cell: between will-display and end-displaying; `true` for other views.
    public var isDisplayed: Bool

    /// Creates the facts.
    public init(isInWindow: Bool, isHidden: Bool, isScreenVisible: Bool, isDisplayed: Bool = true) {
        self.isInWindow = isInWindow
        self.isHidden = isHidden
        self.isScreenVisible = isScreenVisible
        self.isDisplayed = isDisplayed
    }

    /// Whether the view counts as appeared.
    public var isAppeared: Bool { isInWindow && !isHidden && isScreenVisible && isDisplayed }
}

/// What a view was last found to be: kept by the view (a stored property, or an
/// associated object on UIKit) so that only changes are recorded.
@_spi(Capture) public struct ViewVisibility: Sendable, Hashable {
    /// Whether the view was last found appeared.
    public private(set) var isAppeared = false

    /// A view not yet appeared.
    public init() {}

    /// Takes new facts; returns the event to record when the verdict changed.
    public mutating func update(_ facts: ViewFacts) -> FocusEvent.Name? {
        let now = facts.isAppeared
        guard now != isAppeared else { return nil }
        isAppeared = now
        return now ? .appeared : .disappeared
    }
}
