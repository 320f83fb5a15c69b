extension ProviderLane {
    /// Removes or hashes the event's PII parameters, for a provider that may not receive them.
    /// - Parameters:
    ///   - event: The event, changed in place; its `metadata` names the PII keys.
    ///   - handling: What happens to each PII value.
    static func strip(_ event: inout AnalyticsEvent, handling: PIIHandling) {
        for key in event.metadata.piiKeys {
            guard let value = event.parameters[key] else { continue }
            switch handling {
            case .remove:
                event.parameters.removeValue(forKey: key)
            case .hash(let salt):
                event.parameters[key] = .string(SHA256.hexDigest(Array((salt + value.description).utf8)))
            }
        }
    }
}
