/// Back-pressure from the provider lanes to the pipeline.
///
/// An event costs least while it waits in the intake (one ``Pipeline/Item``); once
/// the pipeline has turned it into an ``AnalyticsEnvelope`` in a lane, it costs the
/// envelope, the lane's share of a batch and, for a joined delivery, a copy. So the
/// pipeline waits, leaving the rest of a burst in the intake, while every lane
/// holds at least ``window`` events: then no provider lacks work, and waiting
/// delays none of them. It goes on as soon as one lane delivers a part. The
/// fastest lane sets the pace; a slower one fills up to
/// ``AnalyticsService/Configuration/providerLimit`` on its own, as without pacing.
///
/// A lane paces only while its provider makes progress: a lane that has finished
/// no call to its provider for ``patience`` or longer (the provider hangs in
/// `receive` or `flush`) stops holding the pipeline back, and fills up to its
/// limit. Below ``window`` events nothing changes: an app's `report`s, spread
/// over its run, never wait here.
enum LanePacing {
    /// The events a lane holds before it paces the pipeline: two of the lane's
    /// deliveries, so the next one is ready while the provider receives one.
    static let window = 2 * ProviderLane.deliveryChunk

    /// How long a lane may go without progress (uptime nanoseconds) and still pace
    /// the pipeline, by default.
    static let patience: UInt64 = 500_000_000

    /// Whether a lane holding `heldEvents` holds the pipeline back at `now`.
    /// - Parameters:
    ///   - heldEvents: The events the lane holds, queued or being delivered.
    ///   - lastProgress: When the lane's task last started or finished a call to its
    ///     provider (uptime nanoseconds).
    ///   - now: Uptime nanoseconds.
    ///   - patience: How long the lane may go without progress, in nanoseconds.
    /// - Returns: `true` when the lane paces the pipeline (which waits while every lane does).
    static func paces(heldEvents: Int, lastProgress: UInt64, now: UInt64, patience: UInt64 = patience) -> Bool {
        heldEvents >= window && now &- lastProgress < patience
    }
}
