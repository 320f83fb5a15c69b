import Foundation

/// A collector's wire protocol: how one event becomes a record in the durable queue,
/// how records become a request body, where the request goes with which headers, and
/// what the collector's answers mean for the upload. Segment's HTTP Tracking API
/// (``SegmentWire``) is one; AnnaDestinations adds Amplitude, Mixpanel and PostHog.
///
/// Everything else is shared: the durable queue, the ``UploadStateMachine`` (the only
/// place that decides what to send, split, drop, retry and when), the uploader thread,
/// the transport, gzip, network paths and suspension (``DurableProvider``).
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

/// The shape of every collector's JSON batch: a prefix, the records joined by commas,
/// a suffix (`{"batch":[` … `],"sentAt":"…"}` for Segment, `[` … `]` for Mixpanel).
package enum BatchBody {
    /// `prefix`, then `records` in order with a comma between two, then `suffix`.
    /// - Parameters:
    ///   - records: Each record's JSON.
    ///   - prefix: What opens the body, up to the records' array included.
    ///   - suffix: What closes it, from the end of the records' array.
    /// - Returns: The uncompressed body.
    package static func joined<Records: Collection>(_ records: Records, prefix: [UInt8], suffix: [UInt8]) -> [UInt8]
    where Records.Element == [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(records.reduce(prefix.count + suffix.count) { $0 + $1.count + 1 })
        body.append(contentsOf: prefix)
        for (index, record) in records.enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body.append(contentsOf: record)
        }
        body.append(contentsOf: suffix)
        return body
    }
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
