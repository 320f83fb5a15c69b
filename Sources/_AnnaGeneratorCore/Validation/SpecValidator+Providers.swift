import AnnaRules

extension SpecValidationPass {
    /// Checks events and parameters against a provider's documented limits.
    mutating func check(_ events: [TrackingSpec.Event], against profile: ProviderProfile) {
        let provider = profile.name
        for event in events {
            checkName(event.name, kind: .event, at: event.location, profile: profile)
            if let limit = profile.maximumParameters, event.parameters.count > limit {
                context.error("\(provider): event '\(event.name)' has \(event.parameters.count) parameters, over the limit of \(limit); split it or drop parameters", at: event.location)
            }
            var estimatedBytes = event.name.utf8.count + 256  // envelope: ids, timestamps, context
            var boundedSize = true
            for parameter in event.parameters {
                checkName(parameter.name, kind: .parameter, at: parameter.location, profile: profile)
                checkStringLimit(parameter, profile: profile)
                if parameter.type.isArray && !profile.acceptsArrayValues {
                    let mapped = profile.mapped(parameter.name)
                    let shown = mapped == parameter.name ? "'\(parameter.name)'" : "'\(parameter.name)' (sent as '\(mapped)')"
                    context.error("\(provider): parameter \(shown) of event '\(event.name)' is an array (\(parameter.type)), but \(provider) takes only string and number values; declare one value (e.g. the item or a count) or a string with maxLength", at: parameter.location)
                }
                estimatedBytes += parameter.name.utf8.count + 8
                switch parameter.type.base {
                case _ where parameter.type.isArray: boundedSize = false
                case .string:
                    // maxLength can be up to Int.max; capped at 2^28 characters (1 GiB, over every
                    // message limit) so that neither `* 4` nor the sum can overflow.
                    if let maxLength = parameter.constraints.maxLength { estimatedBytes += Swift.min(maxLength, 1 << 28) * 4 } else { boundedSize = false }
                case .named(let name):
                    estimatedBytes += types[name]?.cases.map(\.rawValue.utf8.count).max() ?? 0
                default:
                    estimatedBytes += 48
                }
            }
            if let limit = profile.maximumEventBytes, boundedSize, estimatedBytes > limit {
                context.error("\(provider): event '\(event.name)' can reach \(estimatedBytes) bytes, over the \(limit / 1024) KB message limit; lower the maxLength of its strings", at: event.location)
            }
        }
    }

    private mutating func checkName(_ name: String, kind: ProviderProfile.NameKind, at location: SourceLocation, profile: ProviderProfile) {
        let provider = profile.name
        let mapped = profile.mapped(name)
        let shown = mapped == name ? "'\(name)'" : "'\(name)' (sent as '\(mapped)')"
        for rule in profile.brokenRules(ofMapped: mapped, kind: kind) {
            switch rule {
            case .tooLong(let limit):
                context.error("\(provider): \(kind) name \(shown) has \(mapped.count) characters, over the limit of \(limit); shorten it", at: location)
            case .notIdentifier:
                context.error("\(provider): \(kind) name \(shown) must be letters, digits and '_', starting with a letter; rename it", at: location)
            case .reservedPrefix(let prefix):
                context.error("\(provider): \(kind) name \(shown) starts with '\(prefix)', which \(provider) reserves; rename it", at: location)
            case .reservedEventName:
                context.error("\(provider): the event name '\(mapped)' is reserved for \(provider)'s own events; rename '\(name)'", at: location)
            }
        }
    }

    private mutating func checkStringLimit(_ parameter: TrackingSpec.Parameter, profile: ProviderProfile) {
        guard let limit = profile.maximumStringLength else { return }
        let provider = profile.name
        let unit = profile.stringLengthUnit
        switch parameter.type.base {
        case .string:
            if let maxLength = parameter.constraints.maxLength {
                if maxLength > limit {
                    context.error("\(provider): maxLength \(maxLength) of parameter '\(parameter.name)' is over \(provider)'s limit of \(limit) \(unit) for string values; lower it to \(limit) or less", at: parameter.location)
                }
            } else if profile.requiresMaxLength {
                context.error("\(provider): string parameter '\(parameter.name)' must declare maxLength of at most \(limit) (\(provider) drops longer values); add maxLength: \(limit)", at: parameter.location)
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
