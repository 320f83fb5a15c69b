import Foundation

/// The body of one request: encoded events in the Segment batch envelope.
extension TrackingAPIEncoder {
    /// `{"batch":[…],"sentAt":"…"}` around events already encoded by ``encode(_:into:)``.
    /// - Parameters:
    ///   - events: Each event's Segment JSON, in queue order.
    ///   - sentAt: When the batch leaves, for the collector's clock-skew correction.
    /// - Returns: The uncompressed body.
    static func batchBody<Events: Collection>(_ events: Events, sentAt: Date) -> [UInt8]
    where Events.Element == [UInt8] {
        var suffix = Array(#"],"sentAt":""#.utf8)
        timestamp(sentAt, into: &suffix)
        suffix.append(contentsOf: #""}"#.utf8)
        return BatchBody.joined(events, prefix: Self.batchPrefix, suffix: suffix)
    }

    private static let batchPrefix = Array(#"{"batch":["#.utf8)
}
