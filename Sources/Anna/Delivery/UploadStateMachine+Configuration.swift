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

        init(_ configuration: HTTPBatchProvider.Configuration, adoptsOrphans: Bool = false) {
            self.adoptsOrphans = adoptsOrphans
            flushAt = configuration.flushAt
            flushInterval = configuration.flushInterval
            maxBatchCount = max(1, configuration.maxBatchCount)
            // Room for the envelope `{"batch":[…],"sentAt":"…"}` and the commas.
            maxBatchBytes = max(1, configuration.maxBatchSize - 64 - configuration.maxBatchCount)
            initialRetryDelay = configuration.initialRetryDelay
            maxRetryDelay = configuration.maxRetryDelay
            maxRetryAfter = configuration.maxRetryAfter
            maxRejectedInARow = max(1, configuration.maxRejectedInARow)
            maxBacklogOnExpensivePath = configuration.maxBacklogOnExpensivePath.map { max(0, $0) }
        }
    }
}
