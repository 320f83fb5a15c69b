@_spi(DurableQueue)
extension DurableQueue {
    /// A record read from the queue, to be acknowledged once the server took it.
    public struct Record: Sendable, Hashable {
        /// The bytes that were appended.
        public let payload: [UInt8]
        let segment: UInt64
        let end: Int
        /// The writer's store when it was read (``DurableQueue/Writer/generation``).
        var generation: UInt64 = 0
    }
}
