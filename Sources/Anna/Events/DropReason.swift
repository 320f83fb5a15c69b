/// Why the service did not deliver an event.
public enum DropReason: String, Sendable, Hashable, CaseIterable, Codable {
    /// Its consent category was not granted.
    case consent
    /// The user had opted out, or opted out before it was delivered.
    case optOut
    /// It broke its constraints under ``ViolationPolicy/drop``.
    case violation
    /// A stage returned `false` for it.
    case stage
    /// It was reported after ``AnalyticsService/shutdown()``.
    case shutdown
    /// It was reported while the intake was full (``AnalyticsService/Configuration/intakeLimit``).
    case overflow
}
