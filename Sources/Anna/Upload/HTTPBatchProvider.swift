import Foundation

/// Renamed: the durable provider is one class for every collector, Segment's API
/// being ``DurableProvider/Collector/segment(endpoint:writeKey:)``. The initializer
/// `HTTPBatchProvider(endpoint:writeKey:storage:options:configuration:)` and the
/// nested `Configuration` and `Metrics` keep their spelling on ``DurableProvider``.
@available(*, deprecated, renamed: "DurableProvider")
public typealias HTTPBatchProvider = DurableProvider
