@_spi(Capture) import AnnaFocusPaths

/// A view controller. Its parent is its container (navigation or tab), the screen that
/// presented it, or the window. A screen redirects a screen it presented to itself, so
/// the presented screen lands under what this screen last saw focused.
///
/// Subclasses set up analyzers in ``viewDidLoad()``, called at the first appearance.
open class HeadlessScreen: HeadlessResponder {
    /// The root view; its parent is the screen.
    public let view = HeadlessView()
    /// The navigation or tab container holding the screen.
    public internal(set) weak var container: HeadlessScreen?
    /// The screen that presented this one.
    public private(set) weak var presentingScreen: HeadlessScreen?
    /// The screen this one presents.
    public private(set) var presentedScreen: HeadlessScreen?
    weak var window: HeadlessWindow?
    /// Whether the screen is on screen: appeared, and not covered by a screen it presented.
    public private(set) var isVisible = false
    /// Between `viewDidAppear` and `viewDidDisappear`, as the platform says.
    private(set) var isAppearedByPlatform = false
    private var presentedStyle = PresentationStyle.sheet
    private var isLoaded = false

    /// Creates a screen.
    public override init() {
        super.init()
        view.screen = self
    }

    /// Called once, before the first appearance: name analyzers, add sub analyzers.
    open func viewDidLoad() {}

    public override func parentConstitutor() -> (any FocusPathConstituting)? {
        container ?? presentingScreen ?? window
    }

    open override func redirectedConstitutor(for child: any FocusPathConstituting) -> (any FocusPathConstituting)? {
        child === presentedScreen ? self : nil
    }

    /// Whether the screen is in a window: its own, its container's or its presenter's.
    public var isInWindow: Bool { rootWindow != nil }

    /// The window the screen is in, through its container or presenter.
    var rootWindow: HeadlessWindow? {
        window ?? container?.rootWindow ?? presentingScreen?.rootWindow
    }

    /// Loads the screen if needed: ``viewDidLoad()``, then the sub analyzers an
    /// ``AnnaFocusPaths/AnalyzableObject`` exposes.
    public func loadViewIfNeeded() {
        guard !isLoaded else { return }
        isLoaded = true
        viewDidLoad()
        if let object = self as? any AnalyzableObject { AnnaCapture.attachSubAnalyzers(of: object) }
    }

    /// `viewDidAppear`. The screen becomes visible unless a screen it presented covers
    /// it (the capture core's ``Anna/ScreenPresentations`` decides, as for UIKit):
    /// then it records ``AnnaFocusPaths/FocusEvent/Name/appeared`` and its views appear by their facts.
    open func appear() {
        loadViewIfNeeded()
        guard !isAppearedByPlatform else { return }
        isAppearedByPlatform = true
        let id = ObjectIdentifier(self)
        guard let rules = rootWindow?.application?.captureRules else { return apply([.appeared(id)], rules: nil) }
        rules.screens[id] = HeadlessCaptureRules.Weak(object: self)
        apply(rules.presentations.didAppear(id), rules: rules)
    }

    /// `viewDidDisappear`: if the screen was visible, its views disappear, then it
    /// records ``AnnaFocusPaths/FocusEvent/Name/disappeared``.
    open func disappear() {
        disappear(isDismissed: false)
    }

    /// `viewDidDisappear`, saying whether the screen was dismissed for good.
    func disappear(isDismissed: Bool) {
        guard isAppearedByPlatform else { return }
        isAppearedByPlatform = false
        let id = ObjectIdentifier(self)
        guard let rules = rootWindow?.application?.captureRules else { return apply([.disappeared(id)], rules: nil) }
        apply(rules.presentations.didDisappear(id, isDismissed: isDismissed), rules: rules)
    }

    /// Records the visibility changes the capture core decided.
    private func apply(_ changes: [ScreenPresentations.Change], rules: HeadlessCaptureRules?) {
        for change in changes {
            switch change {
            case .appeared(let id):
                screen(id, rules)?.becomeVisible(true)
            case .disappeared(let id):
                screen(id, rules)?.becomeVisible(false)
            }
        }
    }

    private func screen(_ id: ObjectIdentifier, _ rules: HeadlessCaptureRules?) -> HeadlessScreen? {
        id == ObjectIdentifier(self) ? self : rules?.screens[id]?.object
    }

    private func becomeVisible(_ visible: Bool) {
        guard visible != isVisible else { return }
        isVisible = visible
        if visible {
            AnnaCapture.screenDidAppear(analyzer)
            view.refreshVisibility()
        } else {
            view.refreshVisibility()
            AnnaCapture.screenDidDisappear(analyzer)
        }
    }

    /// Makes a screen a child of this one, as a custom container does (UIKit's `addChild`).
    public func addChild(_ screen: HeadlessScreen) {
        screen.container = self
        screen.window = window
    }

    /// How a presented screen covers its presenter, as UIKit's modal presentation styles do.
    public enum PresentationStyle: Sendable, Hashable {
        /// A page or form sheet (the default on iOS 13 and later), or a popover: the
        /// presenter gets no `viewDidDisappear`, and no `viewDidAppear` on dismissal;
        /// the capture core counts it as covered while the sheet is shown.
        case sheet
        /// Full screen: the presenter gets `viewDidDisappear`, then `viewDidAppear`
        /// after the dismissal.
        case fullScreen
    }

    /// Presents a screen modally over this one: `present` called on this screen, which
    /// the presented screen lands under on the focus path (UIKit's
    /// `presentingViewController` may be an ancestor instead; the capture core keeps
    /// the screen `present` was called on).
    /// - Parameters:
    ///   - screen: The screen to present.
    ///   - style: How it covers this one; a sheet by default.
    public func present(_ screen: HeadlessScreen, style: PresentationStyle = .sheet) {
        presentedScreen = screen
        presentedStyle = style
        screen.presentingScreen = self
        screen.window = window
        rootWindow?.application?.captureRules.presentations.willPresent(ObjectIdentifier(screen), from: ObjectIdentifier(self))
        if style == .fullScreen { disappear() }
        screen.appear()
    }

    /// Dismisses the presented screen (or swipes a sheet away): it disappears for
    /// good, and this screen is visible again.
    public func dismissPresented() {
        guard let presented = presentedScreen else { return }
        presented.disappear(isDismissed: true)
        presented.presentingScreen = nil
        presentedScreen = nil
        if presentedStyle == .fullScreen { appear() }
    }
}

/// A navigation container: pushed screens are its children, and it redirects each
/// pushed screen to the screen below it.
public final class HeadlessNavigationController: HeadlessScreen {
    /// The stack, root first.
    public private(set) var screens: [HeadlessScreen] = []

    /// Creates a navigation container with its root screen.
    public init(root: HeadlessScreen) {
        super.init()
        root.container = self
        screens = [root]
    }

    public override func redirectedConstitutor(for child: any FocusPathConstituting) -> (any FocusPathConstituting)? {
        if let position = screens.firstIndex(where: { $0 === child }), position > 0 {
            return screens[position - 1]
        }
        return super.redirectedConstitutor(for: child)
    }

    public override func appear() {
        super.appear()
        screens.last?.appear()
    }

    public override func disappear() {
        screens.last?.disappear()
        super.disappear()
    }

    /// Pushes a screen: the top one disappears, the new one appears.
    public func push(_ screen: HeadlessScreen) {
        screen.container = self
        screen.window = window
        screens.last?.disappear()
        screens.append(screen)
        if isAppearedByPlatform { screen.appear() }
    }

    /// Pops the top screen.
    @discardableResult
    public func pop() -> HeadlessScreen? {
        guard screens.count > 1 else { return nil }
        let top = screens.removeLast()
        top.disappear()
        if isAppearedByPlatform { screens.last?.appear() }
        return top
    }
}

/// A tab container: its tabs are its children; one is visible at a time.
public final class HeadlessTabBarController: HeadlessScreen {
    /// The tabs' screens.
    public let tabs: [HeadlessScreen]
    /// The selected tab.
    public private(set) var selectedIndex = 0

    /// Creates a tab container.
    public init(tabs: [HeadlessScreen]) {
        self.tabs = tabs
        super.init()
        for tab in tabs { tab.container = self }
    }

    public override func appear() {
        super.appear()
        if tabs.indices.contains(selectedIndex) { tabs[selectedIndex].appear() }
    }

    public override func disappear() {
        if tabs.indices.contains(selectedIndex) { tabs[selectedIndex].disappear() }
        super.disappear()
    }

    /// Selects a tab: the selected one disappears, the new one appears.
    public func select(_ index: Int) {
        guard tabs.indices.contains(index), index != selectedIndex else { return }
        tabs[selectedIndex].disappear()
        selectedIndex = index
        for tab in tabs { tab.window = window }
        if isAppearedByPlatform { tabs[index].appear() }
    }
}
