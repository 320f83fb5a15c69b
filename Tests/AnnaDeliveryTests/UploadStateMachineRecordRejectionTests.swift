import Foundation
import Testing

@_spi(Generated) @testable import Anna

/// Answers that name the records a collector refuses (Amplitude's 400 with
/// `events_with_invalid_fields`, Mixpanel's `strict=1` `failed_records`): the machine
/// drops exactly those, reports each, and either acknowledges the rest (ingested) or
/// sends the runs between them again, front to back, in queue order.
@Suite struct UploadStateMachineRecordRejectionTests {
    let start = ContinuousClock.now

    @Test func refusedRecordsOfARequestThatIngestedNothingAreDroppedAndTheRestSentAgain() {
        var machine = TestMachine.make(at: start)
        machine.recovered(10)
        let (sent, effects) = machine.sendBatch(of: 10, at: start) { range in
            range == 0..<10
                ? .recordsRejected(status: 400, reasons: [3: "invalid field 'time'", 7: "missing field 'device_id'"], restAccepted: false)
                : .accepted
        }
        #expect(sent == [0..<10, 0..<3, 4..<7, 8..<10], "the runs between the refused records, never the refused")
        let acknowledged = effects.compactMap(\.acknowledged)
        #expect(acknowledged.map(\.range) == [0..<3, 3..<7, 7..<10], "in queue order, the refused with the run after them")
        #expect(acknowledged.map(\.delivered) == [3, 3, 2])
        #expect(acknowledged.map(\.rejected) == [0, 1, 1])
        let reports = effects.compactMap(\.reported)
        #expect(reports.count == 2 && reports.allSatisfy { $0.code == .rejected && $0.events == 1 })
        #expect(reports.first?.response?.contains("time") == true, "each report says why")
        #expect(machine.failures == 0)
    }

    @Test func refusedRecordsAtTheEndAreDroppedWhenTheBatchEnds() {
        var machine = TestMachine.make(at: start)
        machine.recovered(4)
        let (sent, effects) = machine.sendBatch(of: 4, at: start) { range in
            range == 0..<4 ? .recordsRejected(status: 400, reasons: [2: "a", 3: "b"], restAccepted: false) : .accepted
        }
        #expect(sent == [0..<4, 0..<2])
        #expect(effects.compactMap(\.acknowledged).map(\.range) == [0..<2, 2..<4])
        #expect(effects.compactMap(\.acknowledged).map(\.rejected) == [0, 2])
        #expect(machine.step(now: start).isRead, "the round reads on")
    }

    @Test func refusedRecordsOfARequestThatIngestedTheRestAreDroppedAndTheRestAcknowledged() {
        var machine = TestMachine.make(at: start)
        machine.recovered(5)
        let (sent, effects) = machine.sendBatch(of: 5, at: start) { _ in
            .recordsRejected(status: 400, reasons: [1: "properties.time: too old"], restAccepted: true)
        }
        #expect(sent == [0..<5], "nothing is sent twice")
        let acknowledged = effects.compactMap(\.acknowledged)
        #expect(acknowledged.count == 1 && acknowledged[0].range == 0..<5)
        #expect(acknowledged[0].delivered == 4 && acknowledged[0].rejected == 1)
        #expect(effects.compactMap(\.reported).map(\.code) == [.rejected])
    }

    @Test func anAnswerNamingNoRecordOfTheRequestSplitsLikeA400() {
        var machine = TestMachine.make(at: start)
        machine.recovered(4)
        let (sent, _) = machine.sendBatch(of: 4, at: start) { range in
            range == 0..<4 ? .recordsRejected(status: 400, reasons: [9: "out of range"], restAccepted: false) : .accepted
        }
        #expect(sent == [0..<4, 0..<2, 2..<4], "an index outside the request is ignored; the batch is split")
    }

    /// A vendor's throttling signal reaches the machine as a failure with its pause:
    /// the backoff honours it, and every record stays.
    @Test func aThrottleWithThePauseAVendorAsksForBacksOffThatLong() {
        var machine = TestMachine.make(at: start)
        machine.recovered(3)
        let (_, effects) = machine.sendBatch(of: 3, at: start) { _ in
            .failed(status: 429, message: "Too many requests for some devices and users", retryAfter: 30)
        }
        #expect(effects.compactMap(\.acknowledged).isEmpty)
        #expect(effects.compactMap(\.reported).first?.delay == 30)
        #expect(machine.step(now: start + .seconds(29)) == .wait(until: start + .seconds(30)))
    }
}
