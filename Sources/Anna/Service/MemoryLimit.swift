/// How much a part of the service may hold in memory, in events and in bytes.
///
/// Bytes are estimated from the events' names, keys and values. Beyond either
/// bound, ``AnalyticsService/report(_:)`` does not block: the event is dropped,
/// counted and reported to ``AnalyticsService/Configuration/errorHandler``.
/// ``AnalyticsService/reportWaitingForRoom(_:)`` waits instead.
public struct MemoryLimit: Sendable, Hashable {
    /// The most events.
    public var events: Int
    /// The most bytes, estimated.
    public var bytes: Int

    /// Creates a limit.
    /// - Parameters:
    ///   - events: The most events; at least 1.
    ///   - bytes: The most bytes, estimated; at least one event is always taken.
    public init(events: Int, bytes: Int) {
        self.events = max(events, 1)
        self.bytes = max(bytes, 1)
    }

    /// Whether `events` more events of `bytes` more bytes fit beside what is held.
    /// One event always fits where nothing is held, however large it is.
    func admits(events: Int, bytes: Int, holding heldEvents: Int, _ heldBytes: Int) -> Bool {
        (heldEvents + events <= self.events && heldBytes + bytes <= self.bytes) || (heldEvents == 0 && events <= 1)
    }
}
