import Anna

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
    /// Whether the screen is on screen.
    public private(set) var isVisible = false
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
    /// ``Anna/AnalyzableObject`` exposes.
    public func loadViewIfNeeded() {
        guard !isLoaded else { return }
        isLoaded = true
        viewDidLoad()
        if let object = self as? any AnalyzableObject { AnnaCapture.attachSubAnalyzers(of: object) }
    }

    /// `viewDidAppear`: records ``Anna/FocusEvent/Name/appeared`` on the screen, then
    /// its views appear by their facts.
    open func appear() {
        loadViewIfNeeded()
        guard !isVisible else { return }
        isVisible = true
        AnnaCapture.screenDidAppear(analyzer)
        view.refreshVisibility()
    }

    /// `viewDidDisappear`: its views disappear, then records
    /// ``Anna/FocusEvent/Name/disappeared`` on the screen.
    open func disappear() {
        guard isVisible else { return }
        isVisible = false
        view.refreshVisibility()
        AnnaCapture.screenDidDisappear(analyzer)
    }

    /// Makes a screen a child of this one, as a custom container does (UIKit's `addChild`).
    public func addChild(_ screen: HeadlessScreen) {
        screen.container = self
        screen.window = window
    }

    /// Presents a screen modally over this one.
    public func present(_ screen: HeadlessScreen) {
        presentedScreen = screen
        screen.presentingScreen = self
        screen.window = window
        screen.appear()
    }

    /// Dismisses the presented screen.
    public func dismissPresented() {
        presentedScreen?.disappear()
        presentedScreen?.presentingScreen = nil
        presentedScreen = nil
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
        if isVisible { screen.appear() }
    }

    /// Pops the top screen.
    @discardableResult
    public func pop() -> HeadlessScreen? {
        guard screens.count > 1 else { return nil }
        let top = screens.removeLast()
        top.disappear()
        if isVisible { screens.last?.appear() }
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
        if isVisible { tabs[index].appear() }
    }
}
