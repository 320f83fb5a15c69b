@_spi(Generated) import Anna
import Foundation

extension WebContentBridge {
    /// The event a page's `track` message names, built through the app's catalog and
    /// checked as its typed factory and the service check it; the page's global
    /// properties (declared under `globals:`) ride along, checked as `setGlobal` checks them.
    /// - Throws: ``WebContentRefusal`` for another plan, an undeclared event or
    ///   property, a value of another type or outside an enum, a missing required one,
    ///   and a broken constraint.
    func event(
        _ pageName: String, properties: [String: JSONValue], plan: String?, naming: WebContentMessage.Naming
    ) throws(WebContentRefusal) -> AnalyticsEvent {
        try checkPlan(plan, name: pageName)
        let name = names.event(pageName, naming: naming)
        guard let descriptor = catalog.descriptor(named: name) else {
            throw WebContentRefusal(
                .undeclaredEvent, name: pageName,
                message: "not an event of \(catalog.name)\(EventCatalog.hint(name, in: catalog.events.map(\.name)))")
        }
        return try built(descriptor, key: .event(name), properties: properties, naming: naming, globals: true)
    }

    /// The screen a page's `screen` message names, checked as ``event(_:properties:plan:naming:)`` checks events.
    func screen(
        _ pageName: String, properties: [String: JSONValue], plan: String?, naming: WebContentMessage.Naming
    ) throws(WebContentRefusal) -> AnalyticsScreen {
        try checkPlan(plan, name: pageName)
        guard let descriptor = names.screen(pageName, naming: naming) else {
            throw WebContentRefusal(
                .undeclaredEvent, name: pageName,
                message: "not a screen of \(catalog.name)\(EventCatalog.hint(pageName, in: catalog.calls.screens.map(\.name)))")
        }
        let built = try built(descriptor, key: .screen(descriptor.name), properties: properties, naming: naming, globals: true)
        return AnalyticsScreen(name: built.name, properties: built.parameters, metadata: built.metadata)
    }

    /// A page's traits for `identify` (`set` ``CatalogNames/Key/traits``) or `group`,
    /// each with its PII mark and constraints, as the generated trait factories make them.
    func traits(
        _ properties: [String: JSONValue], set key: CatalogNames.Key, naming: WebContentMessage.Naming
    ) throws(WebContentRefusal) -> [(name: String, value: AnalyticsValue, metadata: PropertyMetadata)] {
        guard !properties.isEmpty else { return [] }
        let call = key == .traits ? "identify" : "group"
        guard let descriptor = key == .traits ? catalog.calls.traits : catalog.calls.groupTraits else {
            throw WebContentRefusal(.undeclaredProperty, name: call, message: "the plan declares no traits for \(call)")
        }
        let built = try built(descriptor, key: key, properties: properties, naming: naming, globals: false, call: call)
        return built.parameters.sorted { $0.key < $1.key }.map { name, value in
            (name, value, Self.propertyMetadata(name, of: built.metadata))
        }
    }

    private func checkPlan(_ plan: String?, name: String) throws(WebContentRefusal) {
        if let plan, plan != catalog.name {
            throw WebContentRefusal(.otherPlan, name: name, message: "the page's plan is not the app's '\(catalog.name)'")
        }
    }

    /// The values a descriptor describes, built as its factory builds them and checked
    /// against its constraints; with `globals`, the keys it does not declare but the
    /// plan's global properties do are checked as those and added.
    private func built(
        _ descriptor: EventDescriptor, key: CatalogNames.Key, properties: [String: JSONValue],
        naming: WebContentMessage.Naming, globals: Bool, call: String? = nil
    ) throws(WebContentRefusal) -> AnalyticsEvent {
        let name = call ?? descriptor.name
        var values: [String: AnalyticsValue] = [:]
        var globalValues: [String: AnalyticsValue] = [:]
        var given: [String: JSONValue] = [:]
        var givenGlobals: [String: JSONValue] = [:]
        values.reserveCapacity(properties.count)
        for (pageKey, pageValue) in properties.sorted(by: { $0.key < $1.key }) {
            let json = names.objectKeys(in: pageValue, naming: naming)
            let parameterName = names.parameter(pageKey, of: key, naming: naming)
            if let parameter = descriptor.parameter(named: parameterName) {
                values[parameter.name] = try Self.value(json, for: parameter, key: pageKey, call: name)
                given[parameter.name] = json
                continue
            }
            let globalName = names.parameter(pageKey, of: .globals, naming: naming)
            guard globals, let global = catalog.calls.globals?.parameter(named: globalName) else {
                throw WebContentRefusal(
                    .undeclaredProperty, name: name,
                    message: "no property '\(pageKey)'\(EventCatalog.hint(parameterName, in: descriptor.parameters.map(\.name)))")
            }
            globalValues[global.name] = try Self.value(json, for: global, key: pageKey, call: name)
            givenGlobals[global.name] = json
        }
        var event = try checked(descriptor, values: values, given: given, call: name, throughFactory: key == .event(descriptor.name))
        if let globalsDescriptor = catalog.calls.globals, !globalValues.isEmpty {
            let properties = try checked(globalsDescriptor, values: globalValues, given: givenGlobals, call: name)
            // As the service adds its own globals: the values, and their PII marks.
            for (global, value) in properties.parameters {
                event.parameters[global] = value
                let prefix = global + "/"
                for pii in properties.metadata.piiKeys where pii == global || pii.hasPrefix(prefix) { event.metadata.piiKeys.insert(pii) }
            }
        }
        return event
    }

    /// Built through the catalog, with no undeclared key inside an object and within
    /// every constraint.
    private func checked(
        _ descriptor: EventDescriptor, values: [String: AnalyticsValue], given: [String: JSONValue], call: String,
        throughFactory: Bool = false
    ) throws(WebContentRefusal) -> AnalyticsEvent {
        var event: AnalyticsEvent
        do throws(EventCatalogError) {
            // An event through its typed factory, when the catalog has them; screens and
            // property sets through their descriptors.
            event = try throughFactory ? catalog.event(named: descriptor.name, values: values) : catalog.built(descriptor, values: values)
        } catch {
            throw WebContentRefusal(.invalidValue, name: call, message: error.message)
        }
        for (key, json) in given.sorted(by: { $0.key < $1.key }) {
            if let path = Self.undeclaredKey(in: json, keptAs: event.parameters[key], at: key) {
                throw WebContentRefusal(.invalidValue, name: call, message: "'\(path)' is not a property of its object type")
            }
        }
        if let violation = checker.withLock({ $0.violations(of: event) }).first {
            throw WebContentRefusal(
                .constraintViolated, name: call, message: "property '\(violation.parameter)' must be \(violation.constraint)")
        }
        event.name = descriptor.name
        return event
    }

    /// A trait's PII mark and constraints, from the metadata of its set, keyed as a
    /// generated trait factory keys them.
    private static func propertyMetadata(_ name: String, of metadata: AnalyticsEvent.Metadata) -> PropertyMetadata {
        let prefix = name + "/"
        var nested: [String: ParameterConstraint] = [:]
        for (path, constraint) in metadata.constraints where path.hasPrefix(prefix) { nested[String(path.dropFirst(prefix.count))] = constraint }
        return PropertyMetadata(isPII: metadata.piiKeys.contains(name), constraint: metadata.constraints[name], nestedConstraints: nested)
    }

    /// A page's value as a parameter takes it; `nil` for `null` (left out).
    private static func value(
        _ json: JSONValue, for parameter: ParameterDescriptor, key: String, call: String
    ) throws(WebContentRefusal) -> AnalyticsValue? {
        guard json != .null else { return nil }
        guard let value = value(json, for: parameter) else {
            throw WebContentRefusal(.invalidValue, name: call, message: "property '\(key)' takes \(parameter.typeDescription), not \(json.typeDescription)")
        }
        return value
    }
}
