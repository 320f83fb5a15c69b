/// A provider that drops events itself after receiving them (a durable queue's caps,
/// a collector's refusals): the service adds its counts to ``AnalyticsMetrics/lost``,
/// so that an app reads every loss in one place.
package protocol DropCounting: AnalyticsProvider {
    /// Events the provider received and will never deliver, by reason.
    var droppedEvents: [DropReason: Int] { get }
}
