/// The batch the upload machine sends: what is left to send, what is acknowledged,
/// what is held to be dropped with the next acknowledgement.
extension UploadStateMachine {
    /// The batch read last: ranges still to send, front first, and what is held.
    struct Batch {
        var count: Int
        var pending: [Range<Int>]
        /// Records before this index are acknowledged.
        var acknowledged = 0
        var heldRejected = 0
        var heldTooLarge = 0
        var heldReports: [DeliveryError] = []
        /// Single records the collector refused for good by index
        /// (``CollectorTransport/Answer/recordsRejected(status:reasons:restAccepted:)``),
        /// by their index in the batch: dropped, unsent, when they reach the front.
        var refused: [Int: DeliveryError] = [:]

        /// The collector ingested nothing of `range` and refused these records (by their
        /// offset in it, with the reason): each becomes a range of its own, dropped when it
        /// reaches the front (``holdRefusedAtFront()``); the runs between them are sent
        /// again, front to back, so acknowledgements stay in queue order.
        mutating func refuse(_ reasons: [Int: String], of range: Range<Int>, status: Int) {
            var parts: [Range<Int>] = []
            var start = range.lowerBound
            for (offset, reason) in reasons.sorted(by: { $0.key < $1.key }) {
                let index = range.lowerBound + offset
                if start < index { parts.append(start..<index) }
                parts.append(index..<index + 1)
                refused[index] = .rejected(status: status, events: 1, response: UploadStateMachine.excerpt("record \(offset): \(reason)"))
                start = index + 1
            }
            if start < range.upperBound { parts.append(start..<range.upperBound) }
            pending.insert(contentsOf: parts, at: 0)
        }

        /// Refused records at the front are held for the next acknowledgement, unsent.
        mutating func holdRefusedAtFront() {
            while let next = pending.first, next.count == 1, let report = refused.removeValue(forKey: next.lowerBound) {
                pending.removeFirst()
                heldRejected += 1
                heldReports.append(report)
            }
        }

        /// Splits the front range in halves, the first half first.
        mutating func split() {
            let range = pending.removeFirst()
            let middle = range.lowerBound + range.count / 2
            pending.insert(contentsOf: [range.lowerBound..<middle, middle..<range.upperBound], at: 0)
        }

        /// Acknowledges from the last acknowledged record through `end`: held drops and `delivered`.
        mutating func release(through end: Int, delivered: Int) -> [Effect] {
            guard end > acknowledged else { return [] }
            var effects: [Effect] = [
                .acknowledge(acknowledged..<end, delivered: delivered, rejected: heldRejected, tooLarge: heldTooLarge)
            ]
            effects += heldReports.map { .report($0) }
            acknowledged = end
            heldRejected = 0
            heldTooLarge = 0
            heldReports = []
            return effects
        }
    }

    /// At most 200 characters of what the collector sent: it may echo event values.
    static func excerpt(_ text: String) -> String {
        text.count <= 200 ? text : String(text.prefix(200)) + "…"
    }
}
