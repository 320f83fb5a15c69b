/// Why an event was not delivered: dropped by the service before any provider saw it
/// (``AnalyticsMetrics/dropped``), or by ``DurableProvider`` and its on-disk queue
/// (``DurableProvider/Metrics/dropped``, ``DeliveryError/dropReason``). Every drop is
/// counted under one of these.
public enum DropReason: String, Sendable, Hashable, CaseIterable, Codable {
    // The service's.

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
    /// A web page's message that the web-content bridge (the `AnnaWebContent` product)
    /// refused: from an origin the app did not allow, too large, beyond the rate,
    /// malformed, not in the app's plan, outside its constraints, or a command the app
    /// did not allow. The bridge counts each kind apart.
    case refusedByBridge

    // The HTTP batch provider's and its queue's.

    /// Larger than ``DurableProvider/Configuration/maxEventSize``, or alone in a
    /// batch the server answered 413 to.
    case tooLarge
    /// Answered 400 alone (a batch answered 400 is split until the refused events
    /// are alone).
    case rejected
    /// Deleted by the queue's byte cap, oldest first.
    case capacity
    /// Deleted by the queue's age cap.
    case age
    /// Never accepted: writing or syncing it failed.
    case writeFailed
    /// Deleted because the user opted out.
    case purged
    /// Never accepted: the queue's buffer held ``DeliveryStorage/Configuration/maxBufferedBytes``
    /// (the provider itself waits for room, so only a direct use of the queue meets this).
    case bufferFull
    /// Never accepted: the storage directory could not be listed, so nothing was written.
    case storageUnavailable
}
