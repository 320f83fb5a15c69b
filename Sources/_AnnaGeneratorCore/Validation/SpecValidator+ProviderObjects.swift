import AnnaRules

extension SpecValidationPass {
    /// Checks a parameter, global or trait of an object type against a provider's
    /// ``ProviderProfile/ObjectRules`` and its name and string rules inside the
    /// objects; every error is reported at the parameter, naming the property.
    /// - Parameters:
    ///   - parameter: The parameter, of an object type or a list of one.
    ///   - event: `event 'x'` or `screen 'x'`, or `nil` for a global property.
    mutating func checkObject(_ parameter: TrackingSpec.Parameter, of event: String?, profile: ProviderProfile) {
        guard case .object(let typeName) = parameter.type.base, let object = objects[typeName] else { return }
        let provider = profile.name
        let rules = profile.objectRules
        let mapped = profile.mapped(parameter.name)
        let subject = event.map { "parameter \(shown(parameter.name, profile)) of \($0)" } ?? "global property \(shown(parameter.name, profile))"
        if parameter.type.isArray {
            if let allowed = rules.objectListParameters, !allowed.contains(mapped) {
                let names = allowed.sorted().map { "'\($0)'" }.joined(separator: ", ")
                context.error("\(provider): \(subject) is a list of objects (\(parameter.type)), but \(provider) takes a list of objects only as \(names), the item list of GA4's e-commerce events; name the parameter \(names) in an e-commerce event, or send a count or an id instead", at: parameter.location)
                return
            }
            if !rules.acceptsNestingInLists {
                for property in object.properties where property.type.isArray || isObject(property) {
                    context.error("\(provider): property '\(property.name)' of \(typeName) in the list \(subject) is \(isObject(property) ? "an object" : "a list") (\(property.type)), but \(provider) takes only flat objects in a list; declare its fields as properties of \(typeName), or send an id", at: parameter.location)
                }
            }
            if let limit = rules.maximumCustomItemKeys {
                let custom = object.properties.filter { !rules.listItemParameterNames.contains(profile.mapped($0.name)) }
                if custom.count > limit {
                    context.error("\(provider): \(typeName) in \(subject) has \(custom.count) custom item parameters, over \(provider)'s limit of \(limit) besides its own item parameters (item_id, item_name, price, quantity, …); drop some or use those names", at: parameter.location)
                }
            }
        } else if !rules.acceptsObjects {
            context.error("\(provider): \(subject) is an object (\(parameter.type)), but \(provider) takes objects only in a list named 'items'; declare its fields as parameters (e.g. '\(parameter.name) \(object.properties[0].name)'), or send an id", at: parameter.location)
            return
        }
        // Nesting inside a list's objects, when the provider takes none, is reported above.
        let flatOnly = parameter.type.isArray && !rules.acceptsNestingInLists
        checkInside(object, parameter: parameter, subject: subject, depth: 1, flatOnly: flatOnly, profile: profile)
    }

    /// Checks the properties of an object, and of the objects in it, against the
    /// profile's depth, key, name and string rules.
    private mutating func checkInside(
        _ object: TrackingSpec.ObjectType, parameter: TrackingSpec.Parameter, subject: String, depth: Int, flatOnly: Bool,
        profile: ProviderProfile
    ) {
        let provider = profile.name
        let rules = profile.objectRules
        if let limit = rules.maximumDepth, depth > limit {
            context.error("\(provider): \(subject) nests objects \(depth) levels deep (\(object.name)), over \(provider)'s limit of \(limit); flatten a level", at: parameter.location)
            return
        }
        if let limit = rules.maximumKeysPerObject, object.properties.count > limit {
            context.error("\(provider): \(object.name) in \(subject) has \(object.properties.count) properties, over \(provider)'s limit of \(limit) keys an object; split it", at: parameter.location)
        }
        for property in object.properties {
            // At the property, where the fix goes; an object used twice is reported once.
            checkName(property.name, kind: .parameter, label: "property", at: property.location, profile: profile)
            checkStringLimit(property, label: "property", profile: profile)
            if flatOnly && (property.type.isArray || isObject(property)) { continue }
            if property.type.isArray && !profile.acceptsArrayValues && !isObject(property) {
                context.error("\(provider): property '\(property.name)' of \(object.name) in \(subject) is an array (\(property.type)), but \(provider) takes only string and number values; declare one value or a string with maxLength", at: parameter.location)
            }
            if case .object(let inner) = property.type.base, let innerObject = objects[inner] {
                checkInside(innerObject, parameter: parameter, subject: subject, depth: depth + 1, flatOnly: flatOnly, profile: profile)
            }
        }
    }

    private func isObject(_ property: TrackingSpec.Parameter) -> Bool {
        if case .object = property.type.base { return true }
        return false
    }
}

extension SpecValidationPass {
    /// Where a provider takes no objects, the runtime sends an object's fields as
    /// parameters named by ``ProviderProfile/ObjectRules/flattenedName(of:)``
    /// (`shipping_method`). A flattened name that is another parameter's, or another
    /// field's, would lose one of the two values; it is an error at the object, naming
    /// the other and the rule the runtime applies: the event's own parameter is sent,
    /// then the field of the parameter first by mapped name.
    /// - Parameters:
    ///   - own: The event's parameters.
    ///   - carried: The globals it carries (those its parameters do not replace).
    ///   - owner: `event 'x'` or `screen 'x'`.
    ///   - reported: What was reported already, so a global is reported once, not per event.
    mutating func checkFlattenedNames(
        _ own: [TrackingSpec.Parameter], carried: [TrackingSpec.Parameter], of owner: String, profile: ProviderProfile,
        reported: inout Set<String>
    ) {
        guard !profile.objectRules.acceptsObjects else { return }
        let provider = profile.name
        let parameters = own + carried
        let globalNames = Set(carried.map(\.name))
        var taken: [String: (parameter: TrackingSpec.Parameter, property: String?)] = [:]
        for parameter in parameters { taken[profile.mapped(parameter.name)] = (parameter, nil) }
        let objectParameters = parameters.filter { parameter in
            if case .object = parameter.type.base { return !parameter.type.isArray }
            return false
        }
        for parameter in objectParameters.sorted(by: { profile.mapped($0.name) < profile.mapped($1.name) }) {
            for field in flattenedFields(of: parameter, names: [profile.mapped(parameter.name)], path: nil, profile: profile) {
                guard let other = taken[field.name] else {
                    taken[field.name] = (parameter, field.path)
                    continue
                }
                let key = "\(parameter.location) \(field.name)"
                guard !reported.contains(key) else { continue }
                reported.insert(key)
                let subject = globalNames.contains(parameter.name) ? "global property \(shown(parameter.name, profile))" : "parameter \(shown(parameter.name, profile)) of \(owner)"
                let otherWord = globalNames.contains(other.parameter.name) ? "global property" : "parameter"
                let at = "\(other.parameter.location.line):\(other.parameter.location.column)"
                if let otherPath = other.property {
                    context.error("\(provider): \(subject) flattens to '\(field.name)' (its property '\(field.path)'), as property '\(otherPath)' of \(otherWord) '\(other.parameter.name)' at \(at) does; at run time \(provider) gets the property of '\(other.parameter.name)' and this one is dropped; rename one of them", at: parameter.location)
                } else {
                    context.error("\(provider): \(subject) flattens to '\(field.name)' (its property '\(field.path)'), the name of \(otherWord) \(shown(other.parameter.name, profile)) at \(at); at run time \(provider) gets that \(otherWord) and the property is dropped; rename one of them", at: parameter.location)
                }
            }
        }
    }

    /// The names an object parameter's fields are sent as where objects are
    /// flattened, each with its property path in the spec (`geo/lat`).
    private func flattenedFields(
        of parameter: TrackingSpec.Parameter, names: [String], path: String?, profile: ProviderProfile
    ) -> [(name: String, path: String)] {
        guard case .object(let typeName) = parameter.type.base, let object = objects[typeName] else { return [] }
        var fields: [(name: String, path: String)] = []
        for property in object.properties {
            let propertyNames = names + [profile.mapped(property.name)]
            let propertyPath = path.map { $0 + "/" + property.name } ?? property.name
            if case .object = property.type.base {
                if !property.type.isArray {
                    fields += flattenedFields(of: property, names: propertyNames, path: propertyPath, profile: profile)
                }
            } else {
                fields.append((ProviderProfile.ObjectRules.flattenedName(of: propertyNames), propertyPath))
            }
        }
        return fields
    }
}
