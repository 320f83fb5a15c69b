import AnnaRules

extension ProviderLane {
    /// Removes or hashes the event's PII parameters, and the PII properties inside its
    /// objects (metadata keys that are ``AnalyticsKeyPath`` paths, such as
    /// `products/email`: in every object of a list), for a provider that may not receive them.
    /// - Parameters:
    ///   - event: The event, changed in place; its `metadata` names the PII keys.
    ///   - handling: What happens to each PII value.
    static func strip(_ event: inout AnalyticsEvent, handling: PIIHandling) {
        for key in event.metadata.piiKeys {
            if event.parameters[key] == nil, AnalyticsKeyPath.isPath(key) {
                let path = AnalyticsKeyPath.components(of: key)
                guard let first = path.first, var value = event.parameters[String(first)] else { continue }
                strip(&value, at: path.dropFirst(), handling: handling)
                event.parameters[String(first)] = value
                continue
            }
            guard let value = event.parameters[key] else { continue }
            switch handling {
            case .remove:
                event.parameters.removeValue(forKey: key)
            case .hash(let salt):
                event.parameters[key] = .string(hashed(value, salt: salt))
            }
        }
    }

    /// Strips the property at `path` inside an object, or inside each object of a list.
    private static func strip(_ value: inout AnalyticsValue, at path: ArraySlice<Substring>, handling: PIIHandling) {
        guard let first = path.first else { return }
        switch value {
        case .array(var elements):
            for index in elements.indices { strip(&elements[index], at: path, handling: handling) }
            value = .array(elements)
        case .object(var fields):
            let key = String(first)
            guard let field = fields[key] else { return }
            if path.count == 1 {
                switch handling {
                case .remove: fields.removeValue(forKey: key)
                case .hash(let salt): fields[key] = .string(hashed(field, salt: salt))
                }
            } else {
                var inner = field
                strip(&inner, at: path.dropFirst(), handling: handling)
                fields[key] = inner
            }
            value = .object(fields)
        default:
            return
        }
    }

    private static func hashed(_ value: AnalyticsValue, salt: String) -> String {
        SHA256.hexDigest(Array((salt + value.description).utf8))
    }
}
