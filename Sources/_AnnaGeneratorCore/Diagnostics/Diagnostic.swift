/// A place in a spec file: 1-based line and column, as editors and Xcode count them.
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The file's path as it was given to the generator.
    public var file: String
    /// The line, starting at 1.
    public var line: Int
    /// The column, starting at 1, counted in characters.
    public var column: Int

    /// Creates a location.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `path:line:column`.
    public var description: String { "\(file):\(line):\(column)" }

    /// Orders by file, then line, then column.
    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}

/// A problem found in a spec, with where it is and what to do about it.
///
/// Printed as `path:line:column: error: message`, the form compilers use, so Xcode
/// and editors show it on the offending line.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious a diagnostic is.
    public enum Severity: String, Sendable, Hashable {
        /// Generation fails.
        case error
        /// Generation goes on; the spec probably has a mistake.
        case warning
        /// Extra context for the diagnostic before it.
        case note
    }

    /// How serious it is.
    public var severity: Severity
    /// What is wrong and what to do next.
    public var message: String
    /// Where it is.
    public var location: SourceLocation

    /// Creates a diagnostic.
    public init(_ severity: Severity, _ message: String, at location: SourceLocation) {
        self.severity = severity
        self.message = message
        self.location = location
    }

    /// An error at a location.
    public static func error(_ message: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.error, message, at: location)
    }

    /// A warning at a location.
    public static func warning(_ message: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.warning, message, at: location)
    }

    /// `path:line:column: severity: message`.
    public var description: String { "\(location): \(severity.rawValue): \(message)" }

    /// The same without the file, as fixtures and tests compare it: `line:column: severity: message`.
    public var descriptionWithoutFile: String {
        "\(location.line):\(location.column): \(severity.rawValue): \(message)"
    }
}

/// Thrown when a spec has errors; carries every diagnostic found, warnings included.
public struct SpecError: Error, Sendable, CustomStringConvertible {
    /// Everything found, in file order.
    public var diagnostics: [Diagnostic]

    /// Creates the error.
    public init(diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }

    /// One diagnostic a line.
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}

/// Collects diagnostics as a stage runs.
struct DiagnosticCollector {
    private(set) var diagnostics: [Diagnostic] = []
    private var recordedErrors: Set<Diagnostic> = []

    var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// Records an error; the same error at the same place is recorded once (a
    /// property of an object type used by several parameters is checked for each).
    mutating func error(_ message: String, at location: SourceLocation) {
        let diagnostic = Diagnostic.error(message, at: location)
        guard recordedErrors.insert(diagnostic).inserted else { return }
        diagnostics.append(diagnostic)
    }

    mutating func warning(_ message: String, at location: SourceLocation) {
        diagnostics.append(.warning(message, at: location))
    }

    mutating func append(contentsOf other: [Diagnostic]) {
        diagnostics.append(contentsOf: other)
    }
}
