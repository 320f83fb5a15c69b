/// A step of the service's pipeline that sees every event on its way to the
/// providers, in report order, on the pipeline's serial queue.
///
/// The phases follow Segment's and Amplitude's plugins:
/// - ``AnalyticsStagePhase/before`` stages run after consent and constraint checks and
///   before Anna's enrichment; the envelope has its message id and timestamp;
/// - ``AnalyticsStagePhase/enrichment`` stages run after Anna added the session,
///   identity and context;
/// - destinations are the providers.
///
/// A stage runs for every event, so it must be quick and must not block.
public protocol AnalyticsStage: Sendable {
    /// When the stage runs.
    var phase: AnalyticsStagePhase { get }
    /// Changes the envelope in place, or returns `false` to drop the event.
    func process(_ envelope: inout AnalyticsEnvelope) -> Bool
}

/// When a stage runs; see ``AnalyticsStage``.
public enum AnalyticsStagePhase: Sendable, Hashable, Comparable {
    /// Before Anna's enrichment.
    case before
    /// After Anna's enrichment.
    case enrichment
}

/// A stage from a closure.
///
/// ```swift
/// ClosureStage(phase: .enrichment) { envelope in
///     envelope.event.parameters["appTheme"] = .string(theme)
///     return true
/// }
/// ```
public struct ClosureStage: AnalyticsStage {
    /// When the stage runs.
    public let phase: AnalyticsStagePhase
    private let body: @Sendable (inout AnalyticsEnvelope) -> Bool

    /// Creates a stage.
    /// - Parameters:
    ///   - phase: When the stage runs.
    ///   - body: Changes the envelope, or returns `false` to drop the event.
    public init(phase: AnalyticsStagePhase, _ body: @escaping @Sendable (inout AnalyticsEnvelope) -> Bool) {
        self.phase = phase
        self.body = body
    }

    /// Runs the closure.
    public func process(_ envelope: inout AnalyticsEnvelope) -> Bool { body(&envelope) }
}
