import Anna

/// A view. Its parent is its screen when it is the screen's root view, otherwise its
/// superview. It reports ``FocusEvent/Name/appeared`` when its screen appears and it is
/// not hidden.
open class HeadlessView: HeadlessResponder {
    /// The superview.
    public private(set) weak var superview: HeadlessView?
    /// The subviews.
    public private(set) var subviews: [HeadlessView] = []
    weak var screen: HeadlessScreen?
    /// Hidden views do not appear.
    public var isHidden = false
    /// Whether the view is on screen.
    public private(set) var isVisible = false

    /// Creates a view.
    public override init() { super.init() }

    public override func parentConstitutor() -> (any FocusPathConstituting)? {
        screen ?? superview
    }

    /// Adds a subview; it appears at once if this view is visible.
    public func addSubview(_ view: HeadlessView) {
        view.removeFromSuperview()
        view.superview = self
        subviews.append(view)
        if isVisible { view.appear() }
    }

    /// Removes the view from its superview; it disappears.
    public func removeFromSuperview() {
        guard let superview else { return }
        disappear()
        superview.subviews.removeAll { $0 === self }
        self.superview = nil
    }

    func appear() {
        guard !isHidden, !isVisible else { return }
        isVisible = true
        recordIfEnabled(.appeared)
        for view in subviews { view.appear() }
    }

    func disappear() {
        guard isVisible else { return }
        for view in subviews { view.disappear() }
        isVisible = false
        recordIfEnabled(.disappeared)
    }
}

/// A button: a tap marks its analyzer focused and records ``FocusEvent/Name/targetAction``,
/// as Anna's UIKit hooks do.
public final class HeadlessButton: HeadlessView {
    /// Taps the button.
    public func tap() {
        guard analyzer.isEnabled else { return }
        analyzer.markFocused()
        analyzer.record(.didEndTouch)
        analyzer.record(.targetAction)
    }
}

/// A table cell, reused by its table for other rows.
public final class HeadlessTableCell: HeadlessView {
    /// The cell's text; setting it records an ``FocusEvent/Name/updated`` event for `text`.
    public var text: String? {
        didSet { if analyzer.isEnabled { analyzer.update(text, for: "text") } }
    }
}

/// A table with sections of rows and reused cells. Displaying a row binds a cell's
/// analyzer as the table's sub analyzer `cell` with the row's index and section, so a
/// row's node keeps its state when cells are reused; a section header displays as
/// the sub analyzer `section`. Selecting a row marks its cell focused and records
/// ``FocusEvent/Name/didSelect``.
public final class HeadlessTable: HeadlessView {
    /// The rows' texts, by section.
    public private(set) var sections: [[String]] = []
    /// The displayed cells by (section, row).
    public private(set) var visibleCells: [IndexPair: HeadlessTableCell] = [:]
    private var reusePool: [HeadlessTableCell] = []
    private var sectionHeaders: [Int: HeadlessView] = [:]
    /// Cells created, as opposed to reused.
    public private(set) var createdCellCount = 0

    /// A row's place.
    public struct IndexPair: Hashable, Sendable {
        /// The section.
        public var section: Int
        /// The row.
        public var row: Int
        /// Creates a place.
        public init(section: Int, row: Int) { self.section = section; self.row = row }
    }

    /// Sets the rows (one section) and displays them.
    public func display(rows: [String]) {
        display(sections: [rows])
    }

    /// Sets the sections and displays every row (`reloadData` plus `willDisplay`).
    public func display(sections: [[String]]) {
        reloadData(sections)
        for (section, rows) in sections.enumerated() {
            displaySection(section)
            for row in rows.indices { displayRow(row, section: section) }
        }
    }

    /// Replaces the data: cells end displaying and the rows' nodes are forgotten.
    public func reloadData(_ sections: [[String]]) {
        for key in visibleCells.keys.sorted(by: { ($0.section, $0.row) < ($1.section, $1.row) }) {
            endDisplayingRow(key.row, section: key.section)
        }
        for (_, header) in sectionHeaders { header.removeFromSuperview() }
        sectionHeaders.removeAll()
        self.sections = sections
        if analyzer.isEnabled {
            analyzer.reloadSubAnalyzers(for: "cell")
            analyzer.reloadSubAnalyzers(for: "section")
        }
    }

    /// Displays a section header.
    public func displaySection(_ section: Int) {
        guard sections.indices.contains(section), sectionHeaders[section] == nil else { return }
        let header = HeadlessView()
        sectionHeaders[section] = header
        analyzer.setSubAnalyzer(header.analyzer, for: "section", index: section)
        addSubview(header)
    }

    /// `willDisplay`: dequeues a cell, binds it to the row and shows the row's text.
    @discardableResult
    public func displayRow(_ row: Int, section: Int = 0) -> HeadlessTableCell? {
        let key = IndexPair(section: section, row: row)
        guard sections.indices.contains(section), sections[section].indices.contains(row) else { return nil }
        if let cell = visibleCells[key] { return cell }
        let cell: HeadlessTableCell
        if let reused = reusePool.popLast() {
            cell = reused
        } else {
            cell = HeadlessTableCell()
            createdCellCount += 1
        }
        visibleCells[key] = cell
        analyzer.setSubAnalyzer(cell.analyzer, for: "cell", index: row, section: section)
        addSubview(cell)
        cell.text = sections[section][row]
        return cell
    }

    /// `didEndDisplaying`: the cell disappears and goes back to the reuse pool.
    public func endDisplayingRow(_ row: Int, section: Int = 0) {
        guard let cell = visibleCells.removeValue(forKey: IndexPair(section: section, row: row)) else { return }
        cell.removeFromSuperview()
        reusePool.append(cell)
    }

    /// Selects a row: its cell is marked focused and records ``FocusEvent/Name/didSelect``.
    public func select(row: Int, section: Int = 0) {
        guard let cell = visibleCells[IndexPair(section: section, row: row)], cell.analyzer.isEnabled else { return }
        cell.analyzer.markFocused()
        cell.analyzer.record(.didSelect)
    }
}
