@_spi(Capture) import AnnaFocusPaths

/// A list cell, reused by its list for other rows.
public final class HeadlessTableCell: HeadlessView {
    /// The cell's text; setting it records an ``AnnaFocusPaths/FocusEvent/Name/updated`` event for `text`.
    public var text: String? {
        didSet { if analyzer.isEnabled { analyzer.update(text, for: "text") } }
    }

    /// Creates a cell, not displayed until its list displays it.
    public override init() {
        super.init()
        isDisplayedByList = false
    }
}

/// A collection's cell: the same as a table's.
public typealias HeadlessCollectionCell = HeadlessTableCell

/// A row's or item's place.
public struct IndexPair: Hashable, Sendable {
    /// The section.
    public var section: Int
    /// The row or item.
    public var row: Int
    /// Creates a place.
    public init(section: Int, row: Int) { self.section = section; self.row = row }
}

/// A scrolling list of sections of reused cells: the base of ``HeadlessTable`` and
/// ``HeadlessCollectionView``. Displaying a row binds a cell's analyzer as the list's
/// sub analyzer ``cellKey`` with the row's index and section (the capture core's
/// will-display rule), so a row's node keeps its state when cells are reused; a
/// section header displays as the sub analyzer `section`. Selecting marks the cell
/// focused and records ``AnnaFocusPaths/FocusEvent/Name/didSelect``.
open class HeadlessList: HeadlessScrollView {
    /// The rows' texts, by section.
    public private(set) var sections: [[String]] = []
    /// The displayed cells by place.
    public private(set) var visibleCells: [IndexPair: HeadlessTableCell] = [:]
    private var reusePool: [HeadlessTableCell] = []
    private var sectionHeaders: [Int: HeadlessView] = [:]
    /// Cells created, as opposed to reused.
    public private(set) var createdCellCount = 0
    /// The cells' name on the path.
    public let cellKey: String

    /// The list's delegate, receiving ``HeadlessListCallback``s as UIKit's table and
    /// collection delegates do. Setting it hooks the callbacks its class implements, as
    /// AnnaUIKit's automatic capture hooks a delegate when it is set (the same
    /// ``Anna/DelegateHooks`` rules): a callback its class does not implement is not
    /// added, and so not captured. Without a delegate the list captures as if its
    /// delegate implemented every callback.
    public var delegate: HeadlessDelegate? {
        didSet { if let delegate { hook(delegate) } }
    }

    /// Creates a list whose cells are named `cellKey`.
    public init(cellKey: String = "cell") {
        self.cellKey = cellKey
        super.init()
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
            analyzer.reloadSubAnalyzers(for: cellKey)
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
        addSubview(cell)
        deliver(.willDisplay, HeadlessListCall(list: self, place: key, cell: cell))
        cell.text = sections[section][row]
        return cell
    }

    /// `didEndDisplaying`: the cell disappears and goes back to the reuse pool.
    public func endDisplayingRow(_ row: Int, section: Int = 0) {
        let key = IndexPair(section: section, row: row)
        guard let cell = visibleCells.removeValue(forKey: key) else { return }
        deliver(.didEndDisplaying, HeadlessListCall(list: self, place: key, cell: cell))
        cell.removeFromSuperview()
        reusePool.append(cell)
    }

    /// `didSelectRowAt` / `didSelectItemAt`: the cell is focused and records ``AnnaFocusPaths/FocusEvent/Name/didSelect``.
    public func selectRow(_ row: Int, section: Int = 0) {
        let key = IndexPair(section: section, row: row)
        guard let cell = visibleCells[key] else { return }
        deliver(.didSelect, HeadlessListCall(list: self, place: key, cell: cell))
    }

    // MARK: Delegate and capture

    /// What capture does for a callback: the same as AnnaUIKit's hooks.
    static func capture(_ callback: HeadlessListCallback, _ call: HeadlessListCall) {
        switch callback {
        case .willDisplay:
            call.cell.willDisplay(in: call.list, row: call.place.row, section: call.place.section)
        case .didEndDisplaying:
            call.cell.didEndDisplaying()
        case .didSelect:
            AnnaCapture.rowDidSelect(
                call.cell.analyzer, in: call.list.analyzer, key: call.list.cellKey, row: call.place.row,
                section: call.place.section)
        }
    }

    /// Sends a callback to the delegate as UIKit does: only when it responds to it.
    private func deliver(_ callback: HeadlessListCallback, _ call: HeadlessListCall) {
        guard let delegate else { return Self.capture(callback, call) }
        guard delegate.responds(to: callback) else {
            // Not delivered, so not captured; a cell still stops being displayed.
            if callback == .didEndDisplaying { call.cell.isDisplayedByList = false }
            return
        }
        delegate.receive(callback, call)
    }

    /// Hooks the callbacks of the delegate's class, and of the object it forwards to.
    private func hook(_ delegate: HeadlessDelegate) {
        var current: HeadlessDelegate? = delegate
        while let object = current {
            for callback in HeadlessListCallback.allCases {
                HeadlessDelegateHooks.hook(callback, for: object.type)
            }
            current = object.forwardingTarget
        }
    }
}

/// A table: a list of rows whose cells are named `cell`.
public final class HeadlessTable: HeadlessList {
    /// A row's place (``IndexPair``).
    public typealias IndexPair = AnnaTesting.IndexPair

    /// Creates a table.
    public init() { super.init(cellKey: "cell") }

    /// Sets the rows (one section) and displays them.
    public func display(rows: [String]) {
        display(sections: [rows])
    }

    /// Selects a row.
    public func select(row: Int, section: Int = 0) {
        selectRow(row, section: section)
    }
}

/// A collection view laid out as a grid: items in sections, cells named `cell` by
/// default, each with its item index and section.
public final class HeadlessCollectionView: HeadlessList {
    /// The number of columns, for ``place(ofItemAt:)``.
    public let columns: Int

    /// Creates a grid.
    public init(columns: Int, cellKey: String = "cell") {
        self.columns = max(1, columns)
        super.init(cellKey: cellKey)
    }

    /// The grid position of an item: its row and column in the layout.
    public func place(ofItemAt item: Int) -> (row: Int, column: Int) {
        (item / columns, item % columns)
    }

    /// Selects an item.
    public func select(item: Int, section: Int = 0) {
        selectRow(item, section: section)
    }
}
