@_spi(Capture) import AnnaFocusPaths

/// The capture core's rule state of one headless application, as AnnaUIKit keeps it
/// for the process: control actions and screen presentations (delegate hooks are
/// process-wide: ``HeadlessDelegateHooks``). Driven from one thread, as the tree is.
final class HeadlessCaptureRules {
    var controlActions = ControlActionRule()
    var presentations = ScreenPresentations()
    /// The screens by identity, for the presentations' changes.
    var screens: [ObjectIdentifier: Weak<HeadlessScreen>] = [:]

    struct Weak<Object: AnyObject> {
        weak var object: Object?
    }
}
