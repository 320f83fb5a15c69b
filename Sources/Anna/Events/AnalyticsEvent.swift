/// Something that happened in the app, with typed parameters.
///
/// Events are usually built by the factories a tracking spec generates:
///
/// ```swift
/// analytics.report(.categoryAdded(categoryTitle: "Books", itemCount: 3, source: .manual))
/// ```
///
/// A factory also attaches ``metadata``: the consent category, the parameters that
/// identify a person, and the constraints the spec declared, so the runtime can
/// enforce them without the spec at hand.
public struct AnalyticsEvent: Sendable, Hashable, Codable {
    /// The event's name as the spec declares it, before any provider's mapping.
    public var name: String
    /// The event's parameters by name. Optional parameters that were `nil` are absent.
    public var parameters: [String: AnalyticsValue]
    /// What the spec declared about the event beyond its parameters.
    public var metadata: Metadata

    /// Creates an event.
    /// - Parameters:
    ///   - name: The event's name.
    ///   - parameters: The event's parameters by name.
    ///   - metadata: Consent category, PII keys and constraints; by default the
    ///     `analytics` category with no PII and no constraints.
    public init(name: String, parameters: [String: AnalyticsValue] = [:], metadata: Metadata = .init()) {
        self.name = name
        self.parameters = parameters
        self.metadata = metadata
    }
}

extension AnalyticsEvent: CustomStringConvertible {
    /// The name and the parameters sorted by key, e.g. `categoryAdded(itemCount: 3, source: manual)`.
    public var description: String {
        guard !parameters.isEmpty else { return name }
        let rendered = parameters.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        return "\(name)(\(rendered.joined(separator: ", ")))"
    }
}
