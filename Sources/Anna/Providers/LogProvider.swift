import Logging

/// Writes events to a swift-log `Logger`.
///
/// By default it logs each event's name and parameter names at `info` level and
/// no values, so nothing about the user reaches the log. Pass `includesValues: true`
/// during development to see the values; PII parameters stay out either way,
/// since the provider does not declare that it may receive them.
public struct LogProvider: AnalyticsProvider {
    /// `LogProvider`.
    public var name: String { "LogProvider" }
    /// No mapping, no profile; PII removed; every kind of call.
    public let options = ProviderOptions(receivedKinds: Set(AnalyticsEnvelope.Kind.allCases))

    private let logger: Logger
    private let level: Logger.Level
    private let includesValues: Bool

    /// Creates a log provider.
    /// - Parameters:
    ///   - logger: Where to log; a logger labelled `anna.events` by default.
    ///   - level: The level of each message; `info` by default.
    ///   - includesValues: Whether to log parameter values; `false` by default.
    public init(logger: Logger = Logger(label: "anna.events"), level: Logger.Level = .info, includesValues: Bool = false) {
        self.logger = logger
        self.level = level
        self.includesValues = includesValues
    }

    /// Logs each event of the batch.
    public func receive(_ batch: [AnalyticsEnvelope]) async throws {
        for envelope in batch {
            let line = Self.line(for: envelope.event, includesValues: includesValues)
            switch envelope.kind {
            case .track: logger.log(level: level, "\(line)")
            case .screen: logger.log(level: level, "screen \(line)")
            case .identify, .group: logger.log(level: level, "\(envelope.kind.rawValue)\(line)")
            case .alias: logger.log(level: level, "alias")
            }
        }
    }

    /// The line logged for an event: `name(key, key)` or, with values, `name(key: value)`.
    package static func line(for event: AnalyticsEvent, includesValues: Bool) -> String {
        if includesValues { return event.description }
        guard !event.parameters.isEmpty else { return event.name }
        return "\(event.name)(\(event.parameters.keys.sorted().joined(separator: ", ")))"
    }
}
