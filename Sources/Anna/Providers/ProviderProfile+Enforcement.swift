/// A provider limit an event broke at run time, and what the service did about it.
public struct ProfileViolation: Sendable, Hashable, CustomStringConvertible {
    /// What the service did.
    public enum Action: String, Sendable, Hashable {
        /// The event was not sent to the provider.
        case droppedEvent
        /// The parameter was not sent to the provider.
        case droppedParameter
        /// The string value was cut to the provider's limit.
        case truncatedValue
        /// The array value was sent as one string, its elements joined with `,`, for
        /// a provider that takes no arrays (`ProviderProfile.acceptsArrayValues`).
        case flattenedArray
        /// The object value was sent as one parameter per field, named
        /// `parameter_field`, for a provider that takes no objects there.
        case flattenedObject
        /// The list of objects was cut to the provider's limit.
        case truncatedList
    }

    /// The profile's name, e.g. `firebase`.
    public var profile: String
    /// The event's name after mapping.
    public var event: String
    /// The parameter's name after mapping, when the limit is about a parameter; a
    /// key path (`items/brand`) when it is about a property inside an object.
    public var parameter: String?
    /// The limit, in words.
    public var limit: String
    /// What the service did.
    public var action: Action

    /// The violation in one line, e.g. `firebase: event 'x' parameter 'y': string values of at most 100 characters (truncatedValue)`.
    public var description: String {
        let subject = parameter.map { "event '\(event)' parameter '\($0)'" } ?? "event '\(event)'"
        return "\(profile): \(subject): \(limit) (\(action.rawValue))"
    }
}

extension ProviderProfile {
    /// Makes an event, whose names are already mapped, fit the profile.
    ///
    /// The generator rejects specs that break a profile, so this only acts on events
    /// built by hand or by specs that did not list the provider. Names that break
    /// the rules drop the event or the parameter; extra parameters beyond the limit
    /// are dropped, last by name first; for a profile that takes no arrays, an array
    /// becomes one string of its elements joined with `,` when that fits
    /// ``maximumStringLength``, else the parameter is dropped; long strings are truncated,
    /// inside objects too; objects and lists of objects follow ``objectRules``
    /// (see `enforceObjectRules`).
    /// - Parameters:
    ///   - event: The event, changed in place.
    ///   - violations: Receives one entry per change.
    /// - Returns: `false` when the event must not be sent at all.
    package func enforce(_ event: inout AnalyticsEvent, violations: inout [ProfileViolation]) -> Bool {
        if let problem = nameProblem(event.name, maximumLength: maximumEventNameLength, isEvent: true) {
            violations.append(ProfileViolation(profile: name, event: event.name, limit: problem, action: .droppedEvent))
            return false
        }
        if event.parameters.values.contains(where: \.containsObject) { enforceObjectRules(&event, violations: &violations) }
        var badNames: [(key: String, problem: String)] = []
        for key in event.parameters.keys {
            if let problem = nameProblem(key, maximumLength: maximumParameterNameLength, isEvent: false) {
                badNames.append((key, problem))
            }
        }
        for (key, problem) in badNames.sorted(by: { $0.key < $1.key }) {
            event.parameters.removeValue(forKey: key)
            violations.append(ProfileViolation(profile: name, event: event.name, parameter: key, limit: problem, action: .droppedParameter))
        }
        if let maximumParameters, event.parameters.count > maximumParameters {
            for key in event.parameters.keys.sorted().dropFirst(maximumParameters) {
                event.parameters.removeValue(forKey: key)
                violations.append(ProfileViolation(
                    profile: name, event: event.name, parameter: key,
                    limit: "at most \(maximumParameters) parameters an event", action: .droppedParameter
                ))
            }
        }
        if !acceptsArrayValues { flattenArrays(in: &event, violations: &violations) }
        if let maximumStringLength {
            for (key, value) in event.parameters where value.mayExceed(maximumStringLength) {
                guard let truncated = truncate(value, to: maximumStringLength) else { continue }
                event.parameters[key] = truncated
                let unit = stringLengthUnit
                violations.append(ProfileViolation(
                    profile: name, event: event.name, parameter: key,
                    limit: "string values of at most \(maximumStringLength) \(unit)", action: .truncatedValue
                ))
            }
        }
        if let maximumEventBytes {
            let size = event.name.utf8.count + event.parameters.reduce(0) { $0 + $1.key.utf8.count + $1.value.description.utf8.count + 6 }
            if size > maximumEventBytes {
                violations.append(ProfileViolation(
                    profile: name, event: event.name, limit: "a message of at most \(maximumEventBytes / 1024) KB", action: .droppedEvent
                ))
                return false
            }
        }
        return true
    }

    /// Why a mapped name breaks the profile's name rules, in words, or `nil` when it does not.
    func nameProblem(_ mappedName: String, maximumLength: Int?, isEvent: Bool) -> String? {
        let kind: NameKind = isEvent ? .event : .parameter
        guard let rule = brokenRules(ofMapped: mappedName, kind: kind).first else { return nil }
        if case .reservedEventName = rule { return "'\(mappedName)' is reserved" }
        return rule.limit(for: kind)
    }

    /// Replaces each array value by one string of its elements joined with `,`, or
    /// drops the parameter when that string is longer than ``maximumStringLength``.
    private func flattenArrays(in event: inout AnalyticsEvent, violations: inout [ProfileViolation]) {
        var arrays: [String] = []
        for (key, value) in event.parameters {
            // Lists of objects that are left were allowed by the object rules.
            if case .array = value, !value.containsObject { arrays.append(key) }
        }
        for key in arrays.sorted() {
            guard let value = event.parameters[key] else { continue }
            let joined = value.description
            if let maximumStringLength, length(of: joined) > maximumStringLength {
                event.parameters.removeValue(forKey: key)
                violations.append(ProfileViolation(
                    profile: name, event: event.name, parameter: key,
                    limit: "string and number values; the array joined is longer than \(maximumStringLength) \(stringLengthUnit)",
                    action: .droppedParameter
                ))
            } else {
                event.parameters[key] = .string(joined)
                violations.append(ProfileViolation(
                    profile: name, event: event.name, parameter: key,
                    limit: "string and number values; arrays are sent joined with ','", action: .flattenedArray
                ))
            }
        }
    }

    /// The value cut to `limit`, or `nil` when it fits. Arrays are cut element-wise.
    private func truncate(_ value: AnalyticsValue, to limit: Int) -> AnalyticsValue? {
        switch value {
        case .string(let text):
            if text.utf8.count <= limit { return nil }
            if countsBytes {
                var cut = ""
                var used = 0
                for character in text {
                    let size = character.utf8.count
                    if used + size > limit { break }
                    cut.append(character)
                    used += size
                }
                return .string(cut)
            }
            return text.count > limit ? .string(String(text.prefix(limit))) : nil
        case .array(let elements):
            var changed = false
            let cut = elements.map { element -> AnalyticsValue in
                guard let shorter = truncate(element, to: limit) else { return element }
                changed = true
                return shorter
            }
            return changed ? .array(cut) : nil
        case .object(let fields):
            var cut = fields
            var changed = false
            for (key, field) in fields {
                guard let shorter = truncate(field, to: limit) else { continue }
                cut[key] = shorter
                changed = true
            }
            return changed ? .object(cut) : nil
        default:
            return nil
        }
    }
}

extension AnalyticsValue {
    /// Whether a string, or a string in an array or object, has more UTF-8 bytes than `limit`:
    /// the cheap test before counting characters.
    func mayExceed(_ limit: Int) -> Bool {
        switch self {
        case .string(let text): text.utf8.count > limit
        case .array(let elements): elements.contains { $0.mayExceed(limit) }
        case .object(let fields): fields.values.contains { $0.mayExceed(limit) }
        default: false
        }
    }
}
