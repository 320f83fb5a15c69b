/// Which screens are visible, from what the platform says and what Anna sees of
/// presentations, and which screen presented which.
///
/// - A screen is visible between its platform appearance (`viewDidAppear`) and
///   disappearance, except while a screen it presented covers it. Sheets (page and
///   form sheets, popovers) send the presenter no `viewDidDisappear` and no
///   `viewDidAppear` when dismissed, swiped away included; a full-screen presentation
///   does. Counting the presented screen's own appearance and dismissal gives both the
///   same events, once, in either order of the callbacks.
/// - The presenter of a screen is the screen `present` was called on (the outermost
///   call), not UIKit's `presentingViewController`, which is the farthest ancestor
///   that provides the presentation context (often the navigation or tab controller).
///
/// The platform adapter (or AnnaTesting's headless screens) reports the facts and
/// records the changes it returns.
package struct ScreenPresentations: Sendable {
    /// A change of a screen's visibility to record.
    package enum Change: Hashable, Sendable {
        /// The screen became visible: record ``FocusEvent/Name/appeared``.
        case appeared(ObjectIdentifier)
        /// The screen stopped being visible: record ``FocusEvent/Name/disappeared``.
        case disappeared(ObjectIdentifier)
    }

    private struct Screen: Sendable {
        var isAppearedByPlatform = false
        var coveredBy: Set<ObjectIdentifier> = []
        var presenter: ObjectIdentifier?
        var isVisible: Bool { isAppearedByPlatform && coveredBy.isEmpty }
    }

    private var screens: [ObjectIdentifier: Screen] = [:]

    package init() {}

    /// `present` was called on `presenter` to show `presented`.
    package mutating func willPresent(_ presented: ObjectIdentifier, from presenter: ObjectIdentifier) {
        screens[presented, default: Screen()].presenter = presenter
    }

    /// The screen that presented `screen`, while it is presented.
    package func presenter(of screen: ObjectIdentifier) -> ObjectIdentifier? {
        screens[screen]?.presenter
    }

    /// Whether the screen is visible.
    package func isVisible(_ screen: ObjectIdentifier) -> Bool {
        screens[screen]?.isVisible ?? false
    }

    /// The platform says the screen appeared (`viewDidAppear`).
    package mutating func didAppear(_ screen: ObjectIdentifier) -> [Change] {
        var changes = update(screen) { $0.isAppearedByPlatform = true }
        if let presenter = screens[screen]?.presenter {
            changes += update(presenter) { $0.coveredBy.insert(screen) }
        }
        return changes
    }

    /// The platform says the screen disappeared (`viewDidDisappear`).
    /// - Parameters:
    ///   - screen: The screen.
    ///   - isDismissed: Whether it went away for good (dismissed, swiped away or
    ///     popped), not covered by another screen.
    /// - Returns: The changes to record, the screen's before its presenter's.
    package mutating func didDisappear(_ screen: ObjectIdentifier, isDismissed: Bool) -> [Change] {
        var changes = update(screen) { $0.isAppearedByPlatform = false }
        if isDismissed, let presenter = screens[screen]?.presenter {
            changes += update(screen) { $0.presenter = nil }
            changes += update(presenter) { $0.coveredBy.remove(screen) }
        }
        return changes
    }

    /// The screen is gone (deallocated): forgets it and uncovers what it covered.
    package mutating func forget(_ screen: ObjectIdentifier) -> [Change] {
        guard let removed = screens.removeValue(forKey: screen) else { return [] }
        guard let presenter = removed.presenter else { return [] }
        return update(presenter) { $0.coveredBy.remove(screen) }
    }

    private mutating func update(_ screen: ObjectIdentifier, _ change: (inout Screen) -> Void) -> [Change] {
        var state = screens[screen, default: Screen()]
        let before = state.isVisible
        change(&state)
        // A screen with nothing to remember takes no room: screens come and go all day.
        let isBlank = !state.isAppearedByPlatform && state.coveredBy.isEmpty && state.presenter == nil
        screens[screen] = isBlank ? nil : state
        guard state.isVisible != before else { return [] }
        return [state.isVisible ? .appeared(screen) : .disappeared(screen)]
    }
}
