/// The rules that turn UI facts into analyzer calls, in one place for every platform.
///
/// UIKit's hooks, the SwiftUI modifiers and AnnaTesting's headless tree all call these
/// functions with what happened; none of them decides anything else. Each function
/// acts only on an analyzer that is enabled (it has a standalone name or a super
/// analyzer), so objects nobody named stay off the focus path and queue nothing.
///
/// ```swift
/// AnnaCapture.screenDidAppear(controller.analyzer)                 // viewDidAppear
/// AnnaCapture.cellWillDisplay(cell.analyzer, in: table.analyzer, row: 3, section: 0)
/// AnnaCapture.didSelect(cell.analyzer)                             // marks focus, records did-select
/// ```
/// Every function may be called from any thread, as analyzers may.
public enum AnnaCapture {
    /// `viewDidAppear`: records ``FocusEvent/Name/appeared`` on the screen's analyzer.
    @_spi(Capture) public static func screenDidAppear(_ screen: Analyzer) {
        recordIfEnabled(.appeared, on: screen)
    }

    /// `viewDidDisappear`: records ``FocusEvent/Name/disappeared`` on the screen's analyzer.
    @_spi(Capture) public static func screenDidDisappear(_ screen: Analyzer) {
        recordIfEnabled(.disappeared, on: screen)
    }

    /// A list is about to display a cell (`willDisplay`): binds the cell's analyzer as the
    /// list's sub analyzer `key` with the row's index and section, then the cell counts
    /// as displayed, so it appears if its other facts allow (see ``ViewFacts``). A reused
    /// cell moves to the new row's node; the row it left keeps its state.
    /// - Parameters:
    ///   - cell: The cell's analyzer.
    ///   - list: The table's or collection's analyzer.
    ///   - key: The cell's name on the path; `cell` by default.
    ///   - row: The row or item index.
    ///   - section: The section.
    ///   - facts: The cell's facts; ``ViewFacts/isDisplayed`` is taken as `true`.
    ///   - state: The cell's visibility; updated.
    @_spi(Capture) public static func cellWillDisplay(
        _ cell: Analyzer, in list: Analyzer, key: String = "cell", row: Int, section: Int,
        facts: ViewFacts, state: inout ViewVisibility
    ) {
        list.setSubAnalyzer(cell, for: key, index: row, section: section)
        var displayed = facts
        displayed.isDisplayed = true
        viewFactsChanged(displayed, state: &state, analyzer: cell)
    }

    /// A list stopped displaying a cell (`didEndDisplaying`): the cell counts as not
    /// displayed, so the row's node it is bound to records ``FocusEvent/Name/disappeared``
    /// if it had appeared.
    @_spi(Capture) public static func cellDidEndDisplaying(_ cell: Analyzer, facts: ViewFacts, state: inout ViewVisibility) {
        var ended = facts
        ended.isDisplayed = false
        viewFactsChanged(ended, state: &state, analyzer: cell)
    }

    /// A row or item was selected: marks its analyzer focused, so a screen shown next
    /// lands under it, and records ``FocusEvent/Name/didSelect``.
    @_spi(Capture) public static func didSelect(_ cell: Analyzer) {
        focusAndRecord(.didSelect, on: cell)
    }

    /// A list's row was selected (`didSelectRowAt`, `didSelectItemAt`): binds the cell's
    /// analyzer to the row first, when no will-display did (the app's delegate does not
    /// implement it, and capture never adds it), then marks it focused and records
    /// ``FocusEvent/Name/didSelect``.
    /// - Parameters:
    ///   - cell: The cell's analyzer.
    ///   - list: The list's analyzer.
    ///   - key: The cell's name on the path.
    ///   - row: The row or item.
    ///   - section: The section.
    package static func rowDidSelect(_ cell: Analyzer, in list: Analyzer, key: String = "cell", row: Int, section: Int) {
        if list.isEnabled { list.setSubAnalyzer(cell, for: key, index: row, section: section) }
        didSelect(cell)
    }

    /// A control sent its action: marks it focused and records ``FocusEvent/Name/targetAction``.
    @_spi(Capture) public static func targetAction(_ control: Analyzer) {
        focusAndRecord(.targetAction, on: control)
    }

    /// A touch on the object ended: records ``FocusEvent/Name/didEndTouch``.
    @_spi(Capture) public static func touchDidEnd(_ object: Analyzer) {
        recordIfEnabled(.didEndTouch, on: object)
    }

    /// A scroll view began scrolling: records ``FocusEvent/Name/didBeginScroll``.
    @_spi(Capture) public static func scrollDidBegin(_ scrollView: Analyzer) {
        recordIfEnabled(.didBeginScroll, on: scrollView)
    }

    /// The object became the first responder: records ``FocusEvent/Name/didBecomeFirstResponder``.
    @_spi(Capture) public static func didBecomeFirstResponder(_ object: Analyzer) {
        recordIfEnabled(.didBecomeFirstResponder, on: object)
    }

    /// The object resigned the first responder: records ``FocusEvent/Name/didResignFirstResponder``.
    @_spi(Capture) public static func didResignFirstResponder(_ object: Analyzer) {
        recordIfEnabled(.didResignFirstResponder, on: object)
    }

    /// A view's facts changed (it moved to or from a window, was hidden or shown, its
    /// screen appeared or disappeared): records ``FocusEvent/Name/appeared`` or
    /// ``FocusEvent/Name/disappeared`` when the verdict of ``ViewFacts/isAppeared``
    /// changes from the one kept in `state`.
    /// - Parameters:
    ///   - facts: The view's facts now.
    ///   - state: What the view was last found to be; updated.
    ///   - view: The view's analyzer.
    @_spi(Capture) public static func viewFactsChanged(_ facts: ViewFacts, state: inout ViewVisibility, analyzer view: Analyzer) {
        guard let event = state.update(facts) else { return }
        recordIfEnabled(event, on: view)
    }

    /// Adds the sub analyzers an object exposes (``AnalyzableObject/subAnalyzableKeys``)
    /// to its analyzer, each under its key, in key order. Binding the same sub analyzer
    /// again changes nothing, so call it at every load or appearance.
    @_spi(Capture) public static func attachSubAnalyzers(of object: any AnalyzableObject) {
        for key in type(of: object).subAnalyzableKeys.sorted() {
            guard let sub = object.subAnalyzable(forKey: key), sub !== object else { continue }
            object.analyzer.setSubAnalyzer(sub.analyzer, for: key)
        }
    }

    static func recordIfEnabled(_ event: FocusEvent.Name, on analyzer: Analyzer) {
        if analyzer.isEnabled { analyzer.record(event) }
    }

    private static func focusAndRecord(_ event: FocusEvent.Name, on analyzer: Analyzer) {
        guard analyzer.isEnabled else { return }
        analyzer.markFocused()
        analyzer.record(event)
    }
}
