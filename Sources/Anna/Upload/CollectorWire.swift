import Foundation

/// A collector's wire protocol: how one event becomes a record in the durable queue,
/// how records become a request body, where the request goes with which headers, and
/// what the collector's answers mean for the upload. Segment's HTTP Tracking API
/// (``SegmentWire``) is one; AnnaDestinations adds Amplitude, Mixpanel and PostHog.
///
/// Everything else is shared: the durable queue, the ``UploadStateMachine`` (the only
/// place that decides what to send, split, drop, retry and when), the uploader thread,
/// the transport, gzip, network paths and suspension (``DurableDelivery``).
package protocol CollectorWire: Sendable {
    /// Where batches are sent.
    var endpoint: URL { get }
    /// Headers besides `Content-Type`, `Content-Encoding` and `User-Agent`: authorization, if any.
    var headers: [(name: String, value: String)] { get }
    /// Whether the collector takes `Content-Encoding: gzip` bodies.
    var acceptsGzip: Bool { get }
    /// Bytes a body adds around its records, besides one comma between two records.
    var bodyOverhead: Int { get }
    /// The calls this wire sends; the service converts or withholds the others.
    var receivedKinds: Set<AnalyticsEnvelope.Kind> { get }
    /// An encoder for one provider, kept behind that provider's lock.
    func makeEncoder() -> any CollectorRecordEncoder
    /// The request body around records made by the encoder, in queue order.
    /// - Parameters:
    ///   - records: Each record's bytes.
    ///   - sentAt: When the request leaves.
    /// - Returns: The uncompressed body.
    func body<Records: Collection>(_ records: Records, sentAt: Date) -> [UInt8] where Records.Element == [UInt8]
    /// What an answer means for the request's `records` records.
    /// - Parameters:
    ///   - response: The collector's response, or why there is none.
    ///   - records: How many records the request carried.
    /// - Returns: The answer the upload state machine decides on.
    func classify(_ response: CollectorTransport.Response, records: Int) -> CollectorTransport.Answer
}

/// Encodes envelopes into records of one collector's wire format. Not thread-safe:
/// its provider keeps it behind a lock.
package protocol CollectorRecordEncoder {
    /// Appends one envelope's record to `out`.
    mutating func encode(_ envelope: AnalyticsEnvelope, into out: inout [UInt8])
}

/// Segment's HTTP Tracking API: `{"batch":[…],"sentAt":…}` with the write key as the
/// user of HTTP basic auth; answers classified by ``CollectorTransport/Answer/init(_:)``.
struct SegmentWire: CollectorWire {
    let endpoint: URL
    let headers: [(name: String, value: String)]
    let acceptsGzip = true
    /// `{"batch":[`, `],"sentAt":"…"}`.
    let bodyOverhead = 64
    let receivedKinds = Set(AnalyticsEnvelope.Kind.allCases)

    init(endpoint: URL, writeKey: String) {
        self.endpoint = endpoint
        headers = [("Authorization", "Basic " + Data("\(writeKey):".utf8).base64EncodedString())]
    }

    func makeEncoder() -> any CollectorRecordEncoder { TrackingAPIEncoder() }

    func body<Records: Collection>(_ records: Records, sentAt: Date) -> [UInt8] where Records.Element == [UInt8] {
        TrackingAPIEncoder.batchBody(records, sentAt: sentAt)
    }

    func classify(_ response: CollectorTransport.Response, records: Int) -> CollectorTransport.Answer {
        CollectorTransport.Answer(response)
    }
}

extension TrackingAPIEncoder: CollectorRecordEncoder {}
