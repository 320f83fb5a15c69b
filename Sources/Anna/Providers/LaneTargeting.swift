import Dispatch

/// A provider whose work ends on a serial dispatch queue of its own: its lane's
/// queue targets that queue (``DurableProvider``: its queue's writer), so one thread
/// runs the lane's job and the work the job schedules there.
protocol LaneTargeting: AnalyticsProvider {
    /// The queue the lane's queue targets.
    var laneTarget: DispatchQueue { get }
}
