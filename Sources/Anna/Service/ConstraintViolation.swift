import AnnaRules

/// What the service does with an event whose values break the constraints of its spec.
public enum ViolationPolicy: Sendable, Hashable {
    /// Stops a debug build with `assertionFailure` naming the event and parameter;
    /// in a release build the event is logged and sent, as with ``log``.
    case assert
    /// Logs the violation (never the value) and sends the event.
    case log
    /// Drops the event.
    case drop
    /// Sends the event; the violation is still counted and reported.
    case send

    /// ``assert`` in debug builds, ``log`` in release builds.
    public static var standard: ViolationPolicy {
        #if DEBUG
        .assert
        #else
        .log
        #endif
    }
}

/// A parameter value outside what the spec declared.
public struct ConstraintViolation: Sendable, Hashable, CustomStringConvertible {
    /// The event's name.
    public var event: String
    /// The parameter's name, or the path to a property inside an object parameter
    /// (`products/price`, for the price of any product in the list).
    public var parameter: String
    /// The constraint that failed, in words, e.g. `at most 100 characters`.
    /// It never contains the value, which may identify the user.
    public var constraint: String

    /// Creates a violation.
    package init(event: String, parameter: String, constraint: String) {
        self.event = event
        self.parameter = parameter
        self.constraint = constraint
    }

    /// `event 'e' parameter 'p': must be …`.
    public var description: String { "event '\(event)' parameter '\(parameter)': must be \(constraint)" }
}

/// Checks events against the constraints their factories carry. Owned by the
/// pipeline and used only on its queue; caches compiled patterns.
///
/// Patterns run on Anna's own matcher (``RegexProgram``), which takes time linear in
/// the pattern and the string, so no pattern and no value can stall the pipeline.
/// A string longer than the program's ``RegexProgram/maximumInputLength`` (4,096
/// scalars, fewer for large patterns, so that program size × length stays within
/// ``RegexProgram/maximumSteps``) is not matched and counts as a violation. A pattern the matcher cannot use (possible only in a constraint
/// built by hand, since specs are checked at build time) is reported once, as a
/// violation of the first event checked against it, and skipped from then on.
package struct ConstraintChecker {
    private enum CompiledPattern {
        case program(RegexProgram)
        /// Not usable; `reported` once its violation has been returned.
        case unusable(RegexSyntaxError, reported: Bool)
    }

    private var patterns: [String: CompiledPattern] = [:]

    /// A checker with no pattern compiled yet.
    package init() {}

    /// The constraints an event's values break, sorted by parameter.
    package mutating func violations(of event: AnalyticsEvent) -> [ConstraintViolation] {
        var found: [ConstraintViolation] = []
        for (parameter, constraint) in event.metadata.constraints {
            let problem: String?
            if let value = event.parameters[parameter] {
                problem = self.problem(with: value, against: constraint)
            } else if AnalyticsKeyPath.isPath(parameter) {
                // A property inside an object parameter: checked in every object of a list.
                let path = AnalyticsKeyPath.components(of: parameter)
                guard let first = path.first, let value = event.parameters[String(first)] else { continue }
                problem = self.problem(with: value, at: path.dropFirst(), against: constraint)
            } else {
                continue
            }
            if let problem {
                found.append(ConstraintViolation(event: event.name, parameter: parameter, constraint: problem))
            }
        }
        return found.count > 1 ? found.sorted { $0.parameter < $1.parameter } : found
    }

    /// The first problem of a value, or of any element of a list.
    private mutating func problem(with value: AnalyticsValue, against constraint: ParameterConstraint) -> String? {
        guard case .array(let elements) = value else { return problem(withScalar: value, against: constraint) }
        for element in elements {
            if let problem = problem(withScalar: element, against: constraint) { return problem }
        }
        return nil
    }

    /// The first problem of the property at `path` inside an object, or inside any
    /// object of a list; a missing property (an optional left out) has none.
    private mutating func problem(
        with value: AnalyticsValue, at path: ArraySlice<Substring>, against constraint: ParameterConstraint
    ) -> String? {
        guard let first = path.first else { return problem(with: value, against: constraint) }
        switch value {
        case .array(let elements):
            for element in elements {
                if let problem = problem(with: element, at: path, against: constraint) { return problem }
            }
            return nil
        case .object(let fields):
            guard let field = fields[String(first)] else { return nil }
            return problem(with: field, at: path.dropFirst(), against: constraint)
        default:
            return nil
        }
    }

    private mutating func problem(withScalar value: AnalyticsValue, against constraint: ParameterConstraint) -> String? {
        let number: Double? = switch value {
        case .int(let int): Double(int)
        case .double(let double): double
        default: nil
        }
        if let number, let problem = constraint.problem(withNumber: number) { return problem }
        guard case .string(let text) = value else { return nil }
        if let problem = constraint.problem(withText: text) { return problem }
        if let pattern = constraint.pattern { return problem(with: text, matching: pattern) }
        return nil
    }

    private mutating func problem(with text: String, matching pattern: String) -> String? {
        let compiled: CompiledPattern
        if let cached = patterns[pattern] {
            compiled = cached
        } else {
            do {
                compiled = .program(try RegexProgram(pattern))
            } catch {
                compiled = .unusable(error, reported: false)
            }
            patterns[pattern] = compiled
        }
        switch compiled {
        case .program(let program):
            return program.problem(with: text, pattern: pattern)
        case .unusable(let error, let reported):
            guard !reported else { return nil }
            patterns[pattern] = .unusable(error, reported: true)
            return "matching /\(pattern)/, which cannot be checked: \(error.message) (at offset \(error.offset)); this pattern is skipped from now on"
        }
    }
}
