import Anna

/// A provider that keeps what it receives so the example can print it. An actor
/// is a natural provider: the service calls it one batch at a time anyway.
actor ConsoleProvider: AnalyticsProvider {
    nonisolated let name: String
    nonisolated let options: ProviderOptions
    private(set) var received: [AnalyticsEnvelope] = []

    init(name: String, options: ProviderOptions) {
        self.name = name
        self.options = options
    }

    func receive(_ batch: [AnalyticsEnvelope]) async throws {
        received.append(contentsOf: batch)
    }
}
