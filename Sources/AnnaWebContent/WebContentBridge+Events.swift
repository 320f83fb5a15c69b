@_spi(Generated) import Anna
import Foundation

extension WebContentBridge {
    /// The event a page's `track` message names, built through the app's catalog and
    /// checked as its typed factory and the service check it.
    /// - Throws: ``WebContentRefusal`` for another plan, an undeclared event or
    ///   property, a value of another type or outside an enum, a missing required one,
    ///   and a broken constraint.
    func event(
        _ pageName: String, properties: [String: JSONValue], plan: String?, naming: WebContentMessage.Naming
    ) throws(WebContentRefusal) -> AnalyticsEvent {
        if let plan, plan != catalog.name {
            throw WebContentRefusal(
                .otherPlan, name: pageName, message: "the page's plan is not the app's '\(catalog.name)'")
        }
        let name = names.event(pageName, naming: naming)
        guard let descriptor = catalog.descriptor(named: name) else {
            throw WebContentRefusal(
                .undeclaredEvent, name: pageName,
                message: "not an event of \(catalog.name)\(EventCatalog.hint(name, in: catalog.events.map(\.name)))")
        }
        var values: [String: AnalyticsValue] = [:]
        values.reserveCapacity(properties.count)
        for (key, json) in properties.sorted(by: { $0.key < $1.key }) {
            let parameterName = names.parameter(key, of: name, naming: naming)
            guard let parameter = descriptor.parameter(named: parameterName) else {
                throw WebContentRefusal(
                    .undeclaredProperty, name: name,
                    message: "no property '\(key)'\(EventCatalog.hint(parameterName, in: descriptor.parameters.map(\.name)))")
            }
            guard json != .null else { continue }  // left out, as an optional the page did not give
            guard let value = Self.value(json, for: parameter) else {
                throw WebContentRefusal(
                    .invalidValue, name: name, message: "property '\(key)' takes \(parameter.typeDescription), not \(json.typeDescription)")
            }
            values[parameter.name] = value
        }
        let event: AnalyticsEvent
        do throws(EventCatalogError) {
            event = try catalog.event(named: name, values: values)
        } catch {
            throw WebContentRefusal(.invalidValue, name: name, message: error.message)
        }
        for (key, json) in properties {
            let parameterName = names.parameter(key, of: name, naming: naming)
            if let path = Self.undeclaredKey(in: json, keptAs: event.parameters[parameterName], at: parameterName) {
                throw WebContentRefusal(.invalidValue, name: name, message: "'\(path)' is not a property of its object type")
            }
        }
        if let violation = checker.withLock({ $0.violations(of: event) }).first {
            throw WebContentRefusal(
                .constraintViolated, name: name, message: "property '\(violation.parameter)' must be \(violation.constraint)")
        }
        return event
    }

    /// A page's value as the parameter's kind reads it: for a date, an ISO 8601 string
    /// (JavaScript's `toISOString()`) as a date; for an object type, its date
    /// properties too, when the object does not convert with them as strings. `nil`
    /// when it holds a `null` where a value is needed.
    static func value(_ json: JSONValue, for parameter: ParameterDescriptor) -> AnalyticsValue? {
        switch parameter.kind {
        case .date:
            return plain(json, datesFromStrings: true)
        case .object:
            guard let value = plain(json, datesFromStrings: false) else { return nil }
            if parameter.accepts(value) { return value }
            return plain(json, datesFromStrings: true) ?? value
        default:
            return plain(json, datesFromStrings: false)
        }
    }

    private static func plain(_ json: JSONValue, datesFromStrings: Bool) -> AnalyticsValue? {
        switch json {
        case .null: return nil
        case .bool(let flag): return .bool(flag)
        case .int(let number): return .int(number)
        case .double(let number): return .double(number)
        case .string(let text):
            if datesFromStrings, let date = ISO8601Timestamp.date(from: text) { return .date(date) }
            return .string(text)
        case .array(let elements):
            var values: [AnalyticsValue] = []
            values.reserveCapacity(elements.count)
            for element in elements {
                guard let value = plain(element, datesFromStrings: datesFromStrings) else { return nil }
                values.append(value)
            }
            return .array(values)
        case .object(let fields):
            var values: [String: AnalyticsValue] = [:]
            values.reserveCapacity(fields.count)
            for (key, field) in fields where field != .null {
                guard let value = plain(field, datesFromStrings: datesFromStrings) else { return nil }
                values[key] = value
            }
            return .object(values)
        }
    }

    /// The path of a key a page gave inside an object that the object type does not
    /// declare (the typed conversion leaves it out), or `nil`.
    static func undeclaredKey(in json: JSONValue, keptAs value: AnalyticsValue?, at path: String) -> String? {
        switch (json, value) {
        case (.object(let fields), .object(let kept)?):
            for (key, field) in fields.sorted(by: { $0.key < $1.key }) where field != .null {
                guard let inner = kept[key] else { return path + "/" + key }
                if let found = undeclaredKey(in: field, keptAs: inner, at: path + "/" + key) { return found }
            }
        case (.array(let elements), .array(let kept)?) where elements.count == kept.count:
            for (element, inner) in zip(elements, kept) {
                if let found = undeclaredKey(in: element, keptAs: inner, at: path) { return found }
            }
        default:
            break
        }
        return nil
    }
}
