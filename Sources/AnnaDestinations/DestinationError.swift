/// A destination provider's configuration that Anna refuses: a key that must never
/// ship in an app. Thrown by `DurableProvider`'s initializer for the collectors
/// `.amplitude(…)`, `.mixpanel(…)` and `.posthog(…)`; an endpoint that is neither `https`
/// nor loopback `http` throws `DeliveryError` with code `insecureEndpoint`, as for
/// every collector.
public struct DestinationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of a ``DestinationError``.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String

        /// The key is a server secret (a PostHog personal API key `phx_…`): anyone who
        /// unpacks the app could read or delete the project's data with it.
        public static let serverSecret = Code(name: "serverSecret")
        /// The key is empty.
        public static let missingKey = Code(name: "missingKey")

        /// The kind's name, e.g. `serverSecret`.
        public var description: String { name }
    }

    /// The kind of error.
    public let code: Code
    /// What is wrong and what to use instead.
    public let description: String

    init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }
}
