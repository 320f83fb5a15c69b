@_spi(Capture) import AnnaFocusPaths

/// The base of AnnaTesting's headless responder tree: plain objects whose parent and
/// redirect rules mirror UIKit's responder chain, for focus-path tests on any platform.
///
/// ```swift
/// let app = HeadlessApplication(manager: manager)
/// let master = MasterScreen()                    // a HeadlessScreen subclass
/// let navigation = HeadlessNavigationController(root: master)
/// app.window.show(navigation)
/// master.table.display(rows: ["Fruit", "Bread"])
/// master.table.select(row: 1)
/// navigation.push(DetailScreen())                 // lands under the selected cell
/// ```
/// Objects are not thread-safe: drive a tree from one thread, as UIKit does.
open class HeadlessResponder: Analyzable {
    /// The object's analyzer, created on first use.
    open lazy var analyzer: Analyzer = Analyzer(owner: self)

    /// Creates a responder.
    public init() {}

    /// The next responder; overridden by each kind.
    open func parentConstitutor() -> (any FocusPathConstituting)? { nil }

    /// No redirect; containers override.
    open func redirectedConstitutor(for child: any FocusPathConstituting) -> (any FocusPathConstituting)? { nil }
}

/// The application delegate: the top of the chain, holding the ``RootAnalyzer``.
public final class HeadlessApplication: HeadlessResponder {
    /// The manager.
    public let manager: Manager
    /// The window.
    public private(set) lazy var window = HeadlessWindow(application: self)
    /// The app's lifecycle: give it to the service (``Anna/AnalyticsService/Configuration/lifecycle``)
    /// and drive it with ``launch()``, ``enterBackground()``, ``enterForeground()`` and ``terminate()``.
    public let lifecycle: AppLifecycle

    /// Creates the application with its root analyzer.
    /// - Parameters:
    ///   - manager: The focus-path manager.
    ///   - lifecycle: The lifecycle it drives; by default a new one whose background
    ///     time is a ``HeadlessBackgroundWindow``.
    public init(manager: Manager, lifecycle: AppLifecycle = AppLifecycle(backgroundWindow: HeadlessBackgroundWindow())) {
        self.manager = manager
        self.lifecycle = lifecycle
        super.init()
    }

    /// The root analyzer.
    public override var analyzer: Analyzer {
        get { rootAnalyzer }
        set {}
    }

    private lazy var rootAnalyzer = RootAnalyzer(manager: manager, owner: self)
    /// The capture core's rule state, as AnnaUIKit keeps it for the process.
    let captureRules = HeadlessCaptureRules()
}

/// The window: its parent is the application.
public final class HeadlessWindow: HeadlessResponder {
    /// The application.
    public private(set) weak var application: HeadlessApplication?
    /// The root screen.
    public private(set) var rootScreen: HeadlessScreen?
    /// The first responder: the text field being edited.
    public private(set) weak var firstResponder: HeadlessResponder?

    init(application: HeadlessApplication) {
        self.application = application
        super.init()
    }

    public override func parentConstitutor() -> (any FocusPathConstituting)? { application }

    /// Sets the root screen and shows it (UIKit's `rootViewController` + `makeKeyAndVisible`).
    public func show(_ screen: HeadlessScreen) {
        rootScreen?.disappear()
        rootScreen = screen
        screen.window = self
        screen.appear()
    }

    /// Makes `responder` the first responder (`nil`: none), as UIKit does: the current
    /// one resigns (``AnnaFocusPaths/FocusEvent/Name/didResignFirstResponder``), the new one
    /// becomes it (``AnnaFocusPaths/FocusEvent/Name/didBecomeFirstResponder``). Asking the first
    /// responder to become it again records nothing: the capture core decides from
    /// what it was before, as for UIKit's `becomeFirstResponder`, which returns `true`
    /// then too.
    public func makeFirstResponder(_ responder: HeadlessResponder?) {
        let previous = firstResponder
        if let previous, previous !== responder {
            firstResponder = nil
            AnnaCapture.resignFirstResponderReturned(previous.analyzer, wasFirstResponder: true, isFirstResponder: false)
        }
        guard let responder else { return }
        firstResponder = responder
        AnnaCapture.becomeFirstResponderReturned(
            responder.analyzer, wasFirstResponder: previous === responder, isFirstResponder: true)
    }
}
