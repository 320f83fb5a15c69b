#if canImport(UIKit) && !os(watchOS)
@_spi(Capture) import AnnaFocusPaths
import UIKit

// The UIKit adapter only forwards UIKit's callbacks to the capture core (`AnnaCapture`,
// `ControlActionRule`, `ScreenPresentations`, `DelegateHooks`, `CaptureCallNesting`), where
// every decision is made and tested on the headless tree. Built empty on Linux and
// compiled for iOS by scripts/check-apple-sdk.sh: see the README's "What has been
// compiled where".
extension AnnaCapture {
    /// Turns on automatic capture on UIKit: view controllers' appearance and
    /// presentations, table and collection views' cells and selections, controls'
    /// actions (target-action and `UIAction`), touches, scrolls and first-responder
    /// changes are forwarded to the capture core for every responder whose analyzer is
    /// enabled (named, or added as a sub analyzer). Call it at launch, on the main
    /// actor, before views are created: delegates set earlier are not hooked.
    ///
    /// It never changes what the app's own code receives: it adds no method to a
    /// delegate (a callback the delegate does not implement is not captured), wraps the
    /// implementations it hooks so that they run as before, and records each fact once.
    @MainActor public static func enableAutomaticCapture() {
        if UIKitCapture.captureSwitch.turnOn() { UIKitCapture.installHooks() }
    }

    /// Turns automatic capture off. The hooks stay installed and record nothing: they
    /// are never removed, because restoring the original implementations corrupts the
    /// chain when another SDK hooked the same methods after Anna.
    @MainActor public static func disableAutomaticCapture() {
        UIKitCapture.captureSwitch.turnOff()
    }

    /// Whether automatic capture is on.
    @MainActor public static var isAutomaticCaptureEnabled: Bool { UIKitCapture.captureSwitch.isOn }
}

/// The capture core's rule state for the process, on the main actor (UIKit calls every
/// hooked method on the main thread).
@MainActor enum UIKitCapture {
    static var captureSwitch = CaptureSwitch()
    static var controlActions = ControlActionRule()
    static var presentations = ScreenPresentations()
    static var nesting = CaptureCallNesting()
    static var delegateHooks = DelegateHooks<ObjCRuntime>()
    /// The view controllers the presentations know, by identity.
    static var screens: [ObjectIdentifier: WeakScreen] = [:]

    struct WeakScreen {
        weak var controller: UIViewController?
    }

    /// Whether hooks record now: capture is on and the call came on the main thread.
    nonisolated static var isRecording: Bool {
        Thread.isMainThread && MainActor.assumeIsolated { captureSwitch.isOn }
    }

    /// Installed from a nonisolated context, so that the blocks that become UIKit's
    /// implementations are not main-actor closures (which Swift 6 checks at run time):
    /// each enters the main actor itself, only on the main thread.
    nonisolated static func installHooks() {
        installScreenHooks()
        installControlHooks()
        installListHooks()
    }

    /// Runs `body` on the main actor unless a hooked call of the same receiver and
    /// callback is already under way (a subclass's hooked implementation calling its
    /// superclass's): one fact records once. `original`, UIKit's or the app's
    /// implementation, runs outside the main-actor closures, on the caller's thread, with
    /// the caller's own arguments: only `body`'s Sendable values cross into the main actor.
    /// Callers are on the main thread (``isRecording``, or `Thread.isMainThread`).
    nonisolated static func once(_ receiver: AnyObject, _ callback: String, _ body: @MainActor () -> Void,
                                 around original: () -> Void) {
        let key = CaptureCallNesting.Key(receiver: ObjectIdentifier(receiver), callback: callback)
        MainActor.assumeIsolated { if nesting.enter(key) { body() } }
        original()
        MainActor.assumeIsolated { nesting.leave(key) }
    }
}
#endif
