extension UploadStateMachine {
    /// What the machine needs of ``DurableProvider/Configuration``.
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
        /// Whether to adopt the queues of ended processes (a shared folder), and take
        /// the folder's upload lock for each request.
        var adoptsOrphans: Bool
        /// How long to try for the shared folder's upload lock before failing an
        /// attempt: about one request (another process holds it for one at a time).
        var uploadLockPatience: Duration
        /// The longest a request may take in all, however slowly its bytes come: then
        /// ``UploadStateMachine/Step/timedOut(_:records:)``.
        var requestTimeout: Duration

        /// - Parameter bodyOverhead: What the wire's body adds around its records
        ///   (``CollectorWire/bodyOverhead``); Segment's `{"batch":[…],"sentAt":"…"}` by default.
        init(_ configuration: DurableProvider.Configuration, adoptsOrphans: Bool = false, bodyOverhead: Int = 64) {
            self.adoptsOrphans = adoptsOrphans
            uploadLockPatience = configuration.requestTimeout + .seconds(1)
            requestTimeout = configuration.requestTimeout
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
