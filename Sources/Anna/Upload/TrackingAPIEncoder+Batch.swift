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
        var body: [UInt8] = []
        body.reserveCapacity(events.reduce(64) { $0 + $1.count + 1 })
        body.append(contentsOf: #"{"batch":["#.utf8)
        for (index, event) in events.enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body.append(contentsOf: event)
        }
        body.append(contentsOf: #"],"sentAt":""#.utf8)
        timestamp(sentAt, into: &body)
        body.append(contentsOf: #""}"#.utf8)
        return body
    }
}
