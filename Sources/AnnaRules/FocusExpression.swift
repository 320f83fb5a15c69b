/// A `$` expression of a task's `with:`: what it reads from the node a task matched.
/// One parser for the generator, which turns expressions into Swift, and for the
/// runtime, which evaluates them in tasks built at run time.
///
/// `$path`, `$index`, `$section`, `$name`, `$visible`, `$visibleDuration`,
/// `$value(keyPath)`, `$event.name`, `$event.time`, and `$parent.…` /
/// `$ancestor(n).…` before a node-relative one.
package indirect enum FocusExpression: Sendable, Hashable, CustomStringConvertible {
    /// `$path`: the node's path, `/a/b/c`.
    case path
    /// `$index`: the node's index among its indexed siblings.
    case index
    /// `$name`: the node's name.
    case name
    /// `$section`: the node's section, for table rows.
    case section
    /// `$visible`: whether the node is on screen.
    case visible
    /// `$value(keyPath)`: the latest value recorded for a key path.
    case value(String)
    /// `$visibleDuration`: seconds the node has been on screen.
    case visibleDuration
    /// `$event.name`: the recorded event's name.
    case eventName
    /// `$event.time`: when the event was recorded.
    case eventTime
    /// `$parent.…` / `$ancestor(n).…`: the expression on the node `n` levels up.
    case ancestor(Int, FocusExpression)

    /// The kind of value an expression yields.
    package enum Kind: String, Sendable, Hashable {
        case string, int, double, bool, date
    }

    /// Parses what follows `$`; `nil` when it is not an expression.
    package init?(parsing text: Substring) {
        switch text {
        case "path": self = .path
        case "index": self = .index
        case "name": self = .name
        case "section": self = .section
        case "visible": self = .visible
        case "visibleDuration": self = .visibleDuration
        case "event.name": self = .eventName
        case "event.time": self = .eventTime
        default:
            if text.hasPrefix("value("), text.hasSuffix(")") {
                let keyPath = text.dropFirst("value(".count).dropLast()
                guard !keyPath.isEmpty,
                    keyPath.unicodeScalars.allSatisfy({ $0.isASCIILetter || $0.isASCIIDigit || $0 == "_" || $0 == "." })
                else { return nil }
                self = .value(String(keyPath))
            } else if text.hasPrefix("parent.") {
                guard let inner = FocusExpression(parsing: text.dropFirst("parent.".count)), inner.isNodeRelative else { return nil }
                self = .ancestor(1, inner)
            } else if text.hasPrefix("ancestor("), let close = text.firstIndex(of: ")") {
                let digits = text[text.index(text.startIndex, offsetBy: "ancestor(".count)..<close]
                let rest = text[text.index(after: close)...]
                guard let levels = Int(digits), levels >= 1, levels <= 64, rest.hasPrefix("."),
                    let inner = FocusExpression(parsing: rest.dropFirst()), inner.isNodeRelative
                else { return nil }
                self = .ancestor(levels, inner)
            } else {
                return nil
            }
        }
    }

    /// What the expression yields, or `nil` for `$value(…)`, known at run time only.
    package var producedKind: Kind? {
        switch self {
        case .path, .name, .eventName: .string
        case .index, .section: .int
        case .visible: .bool
        case .visibleDuration: .double
        case .eventTime: .date
        case .value: nil
        case .ancestor(_, let inner): inner.producedKind
        }
    }

    /// Whether the expression reads a node, and so may follow `$parent.`.
    package var isNodeRelative: Bool {
        switch self {
        case .path, .name, .index, .section, .value, .visible, .visibleDuration, .ancestor: true
        case .eventName, .eventTime: false
        }
    }

    /// The expression as a spec writes it, without the `$`.
    package var description: String {
        switch self {
        case .path: "path"
        case .index: "index"
        case .name: "name"
        case .section: "section"
        case .visible: "visible"
        case .value(let keyPath): "value(\(keyPath))"
        case .visibleDuration: "visibleDuration"
        case .eventName: "event.name"
        case .eventTime: "event.time"
        case .ancestor(1, let inner): "parent.\(inner)"
        case .ancestor(let levels, let inner): "ancestor(\(levels)).\(inner)"
        }
    }

    /// The message for text after `$` that is not an expression.
    package static let syntaxHelp =
        "use $path, $index, $section, $name, $value(keyPath), $visible, $visibleDuration, $event.name, $event.time, $parent.… or $ancestor(n).… (write $$ for a literal $)"
}
