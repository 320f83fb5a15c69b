import AnnaRules

extension SpecValidationPass {
    /// Checks events (or screens) and their parameters against a provider's documented
    /// limits. Every event also carries the global properties, except those its own
    /// parameters replace, so they count against its parameter limit and size.
    mutating func check(
        _ events: [TrackingSpec.Event], kind: ParameterKind = .event, globals: [TrackingSpec.Parameter] = [],
        against profile: ProviderProfile
    ) {
        let provider = profile.name
        let word = kind.word
        var reportedFlattening = Set<String>()
        for event in events {
            checkName(event.name, kind: .event, label: word, at: event.location, profile: profile)
            let carried = globals.isEmpty ? [] : globals.filter { global in !event.parameters.contains { $0.name == global.name } }
            let count = event.parameters.count + carried.count
            if let limit = profile.maximumParameters, count > limit {
                if carried.isEmpty {
                    context.error("\(provider): \(word) '\(event.name)' has \(event.parameters.count) parameters, over the limit of \(limit); split it or drop parameters", at: event.location)
                } else {
                    context.error("\(provider): \(word) '\(event.name)' has \(event.parameters.count) parameters and carries \(carried.count) global properties, \(count) in all, over the limit of \(limit); drop parameters or global properties", at: event.location)
                }
            }
            var estimatedBytes = event.name.utf8.count + 256  // envelope: ids, timestamps, context
            var boundedSize = true
            for parameter in event.parameters {
                checkName(parameter.name, kind: .parameter, at: parameter.location, profile: profile)
                checkStringLimit(parameter, label: "parameter", profile: profile)
                if case .object = parameter.type.base {
                    checkObject(parameter, of: "\(word) '\(event.name)'", profile: profile)
                } else if parameter.type.isArray && !profile.acceptsArrayValues {
                    context.error("\(provider): parameter \(shown(parameter.name, profile)) of \(word) '\(event.name)' is an array (\(parameter.type)), but \(provider) takes only string and number values; declare one value (e.g. the item or a count) or a string with maxLength", at: parameter.location)
                }
            }
            checkFlattenedNames(event.parameters, carried: carried, of: "\(word) '\(event.name)'", profile: profile, reported: &reportedFlattening)
            for parameter in event.parameters + carried {
                let size = estimatedSize(of: parameter)
                estimatedBytes += size ?? 0
                if size == nil { boundedSize = false }
            }
            if let limit = profile.maximumEventBytes, boundedSize, estimatedBytes > limit {
                let globalsNote = carried.isEmpty ? "" : " counting the global properties it carries"
                context.error("\(provider): \(word) '\(event.name)' can reach \(estimatedBytes) bytes\(globalsNote), over the \(limit / 1024) KB message limit; lower the maxLength of its strings", at: event.location)
            }
        }
    }

    /// Checks traits or global properties against a provider's rules for parameters.
    /// Globals ride on every event, so their values are checked like parameters too;
    /// traits only by name: providers keep them apart from events, under limits of their
    /// own, and drop or hash the PII ones (most of them) where PII may not go.
    mutating func check(properties: [TrackingSpec.Parameter], kind: ParameterKind, against profile: ProviderProfile) {
        let provider = profile.name
        for property in properties {
            checkName(property.name, kind: .parameter, label: kind.word, at: property.location, profile: profile)
            guard kind == .global else { continue }
            checkStringLimit(property, label: kind.word, profile: profile)
            if case .object = property.type.base {
                checkObject(property, of: nil, profile: profile)
            } else if property.type.isArray && !profile.acceptsArrayValues {
                context.error("\(provider): \(kind.word) \(shown(property.name, profile)) is an array (\(property.type)), but \(provider) takes only string and number values; declare one value (e.g. a count) or a string with maxLength", at: property.location)
            }
        }
    }

    /// `'name'`, or `'name' (sent as 'mapped')` when the provider renames it.
    func shown(_ name: String, _ profile: ProviderProfile) -> String {
        let mapped = profile.mapped(name)
        return mapped == name ? "'\(name)'" : "'\(name)' (sent as '\(mapped)')"
    }

    /// The bytes a parameter can add to a message, or `nil` when its size has no bound.
    private func estimatedSize(of parameter: TrackingSpec.Parameter) -> Int? {
        let name = parameter.name.utf8.count + 8
        switch parameter.type.base {
        case _ where parameter.type.isArray: return nil
        case .object(let type):
            var total = name + 2
            for property in objects[type]?.properties ?? [] {
                guard let size = estimatedSize(of: property) else { return nil }
                total += size
            }
            return total
        case .string:
            // maxLength can be up to Int.max; capped at 2^28 characters (1 GiB, over every
            // message limit) so that neither `* 4` nor the sum can overflow.
            guard let maxLength = parameter.constraints.maxLength else { return nil }
            return name + Swift.min(maxLength, 1 << 28) * 4
        case .named(let type):
            return name + (types[type]?.cases.map(\.rawValue.utf8.count).max() ?? 0)
        default:
            return name + 48
        }
    }

    /// `label` names what the name belongs to in messages: `screen`, `trait`; the kind by default.
    mutating func checkName(
        _ name: String, kind: ProviderProfile.NameKind, label: String? = nil, at location: SourceLocation, profile: ProviderProfile
    ) {
        let provider = profile.name
        let mapped = profile.mapped(name)
        let shown = shown(name, profile)
        let label = label ?? kind.rawValue
        for rule in profile.brokenRules(ofMapped: mapped, kind: kind) {
            switch rule {
            case .tooLong(let limit):
                context.error("\(provider): \(label) name \(shown) has \(mapped.count) characters, over the limit of \(limit); shorten it", at: location)
            case .notIdentifier:
                context.error("\(provider): \(label) name \(shown) must be letters, digits and '_', starting with a letter; rename it", at: location)
            case .reservedPrefix(let prefix):
                context.error("\(provider): \(label) name \(shown) starts with '\(prefix)', which \(provider) reserves; rename it", at: location)
            case .reservedEventName:
                context.error("\(provider): the \(label) name '\(mapped)' is reserved for \(provider)'s own events; rename '\(name)'", at: location)
            }
        }
    }

    /// `label` is what the parameter is: `parameter`, `trait`, `global property`.
    mutating func checkStringLimit(_ parameter: TrackingSpec.Parameter, label: String, profile: ProviderProfile) {
        guard let limit = profile.maximumStringLength else { return }
        let provider = profile.name
        let unit = profile.stringLengthUnit
        switch parameter.type.base {
        case .string:
            if let maxLength = parameter.constraints.maxLength {
                if maxLength > limit {
                    context.error("\(provider): maxLength \(maxLength) of \(label) '\(parameter.name)' is over \(provider)'s limit of \(limit) \(unit) for string values; lower it to \(limit) or less", at: parameter.location)
                }
            } else if profile.requiresMaxLength {
                context.error("\(provider): string \(label) '\(parameter.name)' must declare maxLength of at most \(limit) (\(provider) drops longer values); add maxLength: \(limit)", at: parameter.location)
            }
        case .named(let name):
            guard let type = types[name] else { return }
            for value in type.cases.map(\.rawValue) where profile.length(of: value) > limit {
                context.error("\(provider): value '\(value)' of \(name) is over \(provider)'s limit of \(limit) \(unit) for string values; shorten it", at: type.location)
            }
        default:
            break
        }
    }
}
