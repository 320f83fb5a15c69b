extension UploadStateMachine {
    /// What the machine needs of ``HTTPBatchProvider/Configuration``.
    struct Configuration {
        var flushAt: Int
        var flushInterval: Duration
        var maxBatchCount: Int
        var maxBatchBytes: Int
        var initialRetryDelay: Duration
        var maxRetryDelay: Duration
        var maxRetryAfter: Duration
        var maxRejectedInARow: Int
        var maxBacklogOnExpensivePath: Int?
        /// Whether to adopt the queues of ended processes (a shared folder).
        var adoptsOrphans: Bool

        /// - Parameter bodyOverhead: What the wire's body adds around its records
        ///   (``CollectorWire/bodyOverhead``); Segment's `{"batch":[…],"sentAt":"…"}` by default.
        init(_ configuration: HTTPBatchProvider.Configuration, adoptsOrphans: Bool = false, bodyOverhead: Int = 64) {
            self.adoptsOrphans = adoptsOrphans
            flushAt = configuration.flushAt
            flushInterval = configuration.flushInterval
            maxBatchCount = max(1, configuration.maxBatchCount)
            // Room for the body around the records and the commas.
            maxBatchBytes = max(1, configuration.maxBatchSize - bodyOverhead - configuration.maxBatchCount)
            initialRetryDelay = configuration.initialRetryDelay
            maxRetryDelay = configuration.maxRetryDelay
            maxRetryAfter = configuration.maxRetryAfter
            maxRejectedInARow = max(1, configuration.maxRejectedInARow)
            maxBacklogOnExpensivePath = configuration.maxBacklogOnExpensivePath.map { max(0, $0) }
        }
    }
}
