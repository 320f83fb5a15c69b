extension ProviderProfile {
    /// Makes the objects and lists of objects of an event, whose names are already
    /// mapped, fit ``objectRules``: an object where the provider takes none is sent
    /// as one parameter per field (`shipping_city`); a list of objects where it takes
    /// none is dropped; a list is cut to its limit; fields nested deeper than the
    /// provider takes, nested in a list's objects where it takes none, beyond its key
    /// limits, or with names it refuses are dropped. Each change is reported once per
    /// parameter or property path, never silently.
    func enforceObjectRules(_ event: inout AnalyticsEvent, violations: inout [ProfileViolation]) {
        var found: [ProfileViolation] = []
        func report(_ path: String, _ limit: String, _ action: ProfileViolation.Action) {
            let violation = ProfileViolation(profile: name, event: event.name, parameter: path, limit: limit, action: action)
            if !found.contains(violation) { found.append(violation) }
        }
        let rules = objectRules
        var flattenedFrom: [String: String] = [:]  // a flattened parameter's name: the path it came from
        for key in event.parameters.keys.sorted() {
            guard let value = event.parameters[key], value.containsObject else { continue }
            switch value {
            case .object(let fields) where !rules.acceptsObjects:
                event.parameters.removeValue(forKey: key)
                var flat: [(name: String, path: String, value: AnalyticsValue)] = []
                flatten(fields, names: [key], path: key, into: &flat, report: report)
                // An event's own parameter of the flattened name wins, then the field
                // flattened first; the value that loses is reported with both paths.
                for field in flat {
                    if let first = flattenedFrom[field.name] {
                        report(field.path, "flattened to '\(field.name)', the name of '\(first)' flattened, which is sent instead; rename one", .droppedParameter)
                    } else if event.parameters[field.name] != nil {
                        report(field.path, "flattened to '\(field.name)', the name of parameter '\(field.name)', which is sent instead; rename one", .droppedParameter)
                    } else {
                        event.parameters[field.name] = field.value
                        flattenedFrom[field.name] = field.path
                    }
                }
                report(key, "no object values; its fields are sent as parameters named '\(key)_…'", .flattenedObject)
            case .array(var elements):
                if let allowed = rules.objectListParameters, !allowed.contains(key) {
                    event.parameters.removeValue(forKey: key)
                    let names = allowed.sorted().joined(separator: ", ")
                    report(key, "lists of objects only as \(names)", .droppedParameter)
                    continue
                }
                if let limit = rules.maximumObjectsPerList, elements.count > limit {
                    elements.removeLast(elements.count - limit)
                    report(key, "at most \(limit) objects a list", .truncatedList)
                }
                for index in elements.indices {
                    guard case .object(var fields) = elements[index] else { continue }
                    if !rules.acceptsNestingInLists {
                        for field in fields.keys.sorted() where fields[field]?.isNested == true {
                            fields.removeValue(forKey: field)
                            report(key + "/" + field, "flat objects in a list", .droppedParameter)
                        }
                    }
                    if let limit = rules.maximumCustomItemKeys {
                        let custom = fields.keys.filter { !rules.listItemParameterNames.contains($0) }.sorted()
                        for field in custom.dropFirst(limit) {
                            fields.removeValue(forKey: field)
                            report(key + "/" + field, "at most \(limit) custom parameters an item", .droppedParameter)
                        }
                    }
                    var item = AnalyticsValue.object(fields)
                    limitObject(&item, path: key, depth: 1, report: report)
                    elements[index] = item
                }
                event.parameters[key] = .array(elements)
            default:
                var limited = value
                if limitObject(&limited, path: key, depth: 1, report: report) {
                    event.parameters[key] = limited
                } else {
                    event.parameters.removeValue(forKey: key)
                }
            }
        }
        violations.append(contentsOf: found)
    }

    /// Applies depth, key-count and name limits inside an object, or inside each
    /// object of a list; `false` when the value is too deep to send at all.
    @discardableResult
    private func limitObject(
        _ value: inout AnalyticsValue, path: String, depth: Int, report: (String, String, ProfileViolation.Action) -> Void
    ) -> Bool {
        switch value {
        case .array(var elements):
            for index in elements.indices where elements[index].containsObject {
                guard limitObject(&elements[index], path: path, depth: depth, report: report) else { return false }
            }
            value = .array(elements)
            return true
        case .object(var fields):
            if let limit = objectRules.maximumDepth, depth > limit {
                report(path, "objects nested at most \(limit) levels deep", .droppedParameter)
                return false
            }
            for field in fields.keys.sorted() {
                if let problem = nameProblem(field, maximumLength: maximumParameterNameLength, isEvent: false) {
                    fields.removeValue(forKey: field)
                    report(path + "/" + field, problem, .droppedParameter)
                }
            }
            if let limit = objectRules.maximumKeysPerObject, fields.count > limit {
                for field in fields.keys.sorted().dropFirst(limit) {
                    fields.removeValue(forKey: field)
                    report(path + "/" + field, "at most \(limit) keys an object", .droppedParameter)
                }
            }
            for field in fields.keys.sorted() {
                guard var inner = fields[field], inner.containsObject else { continue }
                if limitObject(&inner, path: path + "/" + field, depth: depth + 1, report: report) {
                    fields[field] = inner
                } else {
                    fields.removeValue(forKey: field)
                }
            }
            value = .object(fields)
            return true
        default:
            return true
        }
    }

    /// An object's fields as parameters named as ``ObjectRules/flattenedName(of:)``
    /// says, nested objects within, each with its path (`shipping/geo/lat`); lists
    /// of objects inside cannot be flattened and are dropped.
    private func flatten(
        _ fields: [String: AnalyticsValue], names: [String], path: String,
        into flat: inout [(name: String, path: String, value: AnalyticsValue)],
        report: (String, String, ProfileViolation.Action) -> Void
    ) {
        for field in fields.keys.sorted() {
            guard let value = fields[field] else { continue }
            let fieldNames = names + [field]
            let fieldPath = path + "/" + field
            switch value {
            case .object(let inner): flatten(inner, names: fieldNames, path: fieldPath, into: &flat, report: report)
            case .array where value.containsObject:
                report(fieldPath, "no lists of objects here; only as \(objectRules.objectListParameters?.sorted().joined(separator: ", ") ?? "parameters")", .droppedParameter)
            default: flat.append((ObjectRules.flattenedName(of: fieldNames), fieldPath, value))
            }
        }
    }
}

extension AnalyticsValue {
    /// Whether the value is an object or holds one, at any depth.
    var containsObject: Bool {
        switch self {
        case .object: true
        case .array(let elements): elements.contains { $0.containsObject }
        default: false
        }
    }

    /// Whether the value is an object or a list: what a flat object may not hold.
    var isNested: Bool {
        switch self {
        case .object, .array: true
        default: false
        }
    }
}
