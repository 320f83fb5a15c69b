import Anna

#if canImport(Testing)
import Testing
#endif

/// Describes how two lists of events differ, for test failures a person can read.
public enum EventDifference {
    /// The first difference between `expected` and `actual`, or `nil` when equal.
    ///
    /// Names the position, the event and the parameter, e.g.
    /// `event 2 of 3 (categoryAdded): parameter 'itemCount' expected 3, got 4`.
    /// - Parameters:
    ///   - expected: The events expected, in order.
    ///   - actual: The events received, in order.
    public static func describe(expected: [AnalyticsEvent], actual: [AnalyticsEvent]) -> String? {
        for (index, (wanted, got)) in zip(expected, actual).enumerated() where wanted != got {
            let position = "event \(index + 1) of \(expected.count)"
            return "\(position): \(describe(expected: wanted, actual: got))"
        }
        if actual.count < expected.count {
            let missing = expected[actual.count...].map(\.description).joined(separator: ", ")
            return "expected \(expected.count) events, got \(actual.count); missing: \(missing)"
        }
        if actual.count > expected.count {
            let extra = actual[expected.count...].map(\.description).joined(separator: ", ")
            return "expected \(expected.count) events, got \(actual.count); unexpected: \(extra)"
        }
        return nil
    }

    /// How two events differ: name, then each parameter, then metadata.
    /// - Parameters:
    ///   - expected: The event expected.
    ///   - actual: The event received.
    public static func describe(expected: AnalyticsEvent, actual: AnalyticsEvent) -> String {
        if expected.name != actual.name { return "expected \(expected.name), got \(actual)" }
        var lines: [String] = []
        for key in Set(expected.parameters.keys).union(actual.parameters.keys).sorted() {
            switch (expected.parameters[key], actual.parameters[key]) {
            case (let wanted?, let got?) where wanted != got:
                lines.append("parameter '\(key)' expected \(debug(wanted)), got \(debug(got))")
            case (let wanted?, nil):
                lines.append("parameter '\(key)' expected \(debug(wanted)), missing")
            case (nil, let got?):
                lines.append("parameter '\(key)' not expected, got \(debug(got))")
            default:
                break
            }
        }
        if lines.isEmpty && expected.metadata != actual.metadata {
            lines.append("metadata differs: expected \(expected.metadata), got \(actual.metadata)")
        }
        return "\(expected.name): " + lines.joined(separator: "; ")
    }

    private static func debug(_ value: AnalyticsValue) -> String {
        switch value {
        case .string(let text): "\"\(text)\""
        case .int(let number): "\(number) (int)"
        case .double(let number): "\(number) (double)"
        default: value.description
        }
    }
}

#if canImport(Testing)
extension RecordingProvider {
    /// Records a Swift Testing issue, naming the first differing event and
    /// parameter, unless the received events equal `expected`.
    /// - Parameters:
    ///   - expected: The events expected, in order.
    ///   - sourceLocation: Where the expectation is written.
    public func expectEvents(_ expected: [AnalyticsEvent], sourceLocation: SourceLocation = #_sourceLocation) {
        if let difference = difference(from: expected) {
            Issue.record(Comment(rawValue: difference), sourceLocation: sourceLocation)
        }
    }

    /// Records a Swift Testing issue, naming the first differing screen and property,
    /// unless the received screens equal `expected`.
    /// - Parameters:
    ///   - expected: The screens expected, in order.
    ///   - sourceLocation: Where the expectation is written.
    public func expectScreens(_ expected: [AnalyticsScreen], sourceLocation: SourceLocation = #_sourceLocation) {
        if let difference = difference(from: expected) {
            Issue.record(Comment(rawValue: difference), sourceLocation: sourceLocation)
        }
    }
}
#endif
