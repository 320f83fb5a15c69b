import Foundation
import Testing

@_spi(DurableQueue) @testable import Anna

/// A clock the test moves: monotonic time and wall time, independently.
final class TestClock: Sendable {
    private let times: LockedState<(monotonic: Int64, wall: Int64)>
    static let hour: Int64 = 3600 * 1_000_000_000
    static let year: Int64 = 365 * 24 * hour

    init() {
        times = LockedState((0, Int64(Date().timeIntervalSince1970) * 1_000_000_000))
    }

    func advance(monotonic: Int64 = 0, wall: Int64 = 0) {
        times.withLock { $0.monotonic += monotonic; $0.wall += wall }
    }

    var queueClock: QueueClock {
        QueueClock(
            monotonicNanoseconds: { self.times.withLock { $0.monotonic } },
            wallNanoseconds: { self.times.withLock { $0.wall } })
    }
}

@Suite struct AgeCapTests {
    static func open(_ directory: TemporaryDirectory, _ clock: TestClock, maxAge: Duration) throws -> DurableQueue {
        try DurableQueue(
            store: FileSegmentStore(directory: directory.url), configuration: .init(maxAge: maxAge),
            clock: clock.queueClock, errorHandler: nil)
    }

    /// Defect 7: a file's modification time far in the past (what a clock set forward
    /// after writing looks like) no longer drops the backlog as too old.
    @Test func oldModificationTimesDropNothing() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        do {
            let queue = try DurableQueue(storage: .directory(directory.url))
            queue.appendNumbered(0..<10)
            await queue.waitUntilPersisted()
        }
        let segment = try #require(directory.segments.last)
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-10 * 365 * 86400)], ofItemAtPath: segment.path)
        let reopened = try DurableQueue(storage: .directory(directory.url))
        #expect(await reopened.readAllText() == numbered(0..<10))
        #expect(reopened.metrics.dropped[.age, default: 0] == 0)
    }

    /// The wall clock jumps ten years forward between two runs: nothing is dropped.
    @Test func aClockJumpForwardDropsNothing() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let clock = TestClock()
        do {
            let queue = try Self.open(directory, clock, maxAge: .seconds(7 * 24 * 3600))
            queue.appendNumbered(0..<10)
            await queue.waitUntilPersisted()
        }
        clock.advance(wall: 10 * TestClock.year)
        let queue = try Self.open(directory, clock, maxAge: .seconds(7 * 24 * 3600))
        queue.appendNumbered(10..<12)
        await queue.waitUntilPersisted()
        #expect(await queue.readAllText() == numbered(0..<12))
        #expect(queue.metrics.dropped[.age, default: 0] == 0)
    }

    /// The wall clock goes ten years back between two runs: no age is negative, so
    /// the cap does not stall; real time past `maxAge` still drops, and counts.
    @Test func aClockSetBackNeitherStallsNorDrops() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let clock = TestClock()
        do {
            let queue = try Self.open(directory, clock, maxAge: .seconds(3600))
            queue.appendNumbered(0..<10)
            await queue.waitUntilPersisted()
        }
        clock.advance(wall: -10 * TestClock.year)
        let queue = try Self.open(directory, clock, maxAge: .seconds(3600))
        #expect(await queue.readAllText() == numbered(0..<10))
        clock.advance(monotonic: TestClock.hour / 2)
        #expect(await queue.readAllText() == numbered(0..<10), "half the age: kept")
        clock.advance(monotonic: TestClock.hour)
        queue.appendNumbered(10..<12)
        await queue.waitUntilPersisted()
        #expect(await queue.readAllText() == numbered(10..<12), "past the age: dropped, not stalled")
        #expect(queue.metrics.dropped[.age, default: 0] == 10 && queue.metrics.backlog == 2)
    }

    /// Time the queue runs ages records fully; a gap between runs counts 24 hours at
    /// most, however long the wall clock says it was.
    @Test func monotonicTimeAndClampedGapsAgeRecords() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let clock = TestClock()
        do {
            let queue = try Self.open(directory, clock, maxAge: .seconds(2 * 3600))
            queue.appendNumbered(0..<10)
            await queue.waitUntilPersisted()
            clock.advance(monotonic: 3 * TestClock.hour)
            queue.appendNumbered(10..<12)
            await queue.waitUntilPersisted()
            #expect(await queue.readAllText() == numbered(10..<12))
            #expect(queue.metrics.dropped[.age, default: 0] == 10)
        }
        // Thirty days off: counted as one day, which is past two hours.
        clock.advance(wall: 30 * 24 * TestClock.hour)
        do {
            let queue = try Self.open(directory, clock, maxAge: .seconds(25 * 3600))
            #expect(await queue.readAllText() == numbered(10..<12), "24 h < 25 h: kept")
        }
        clock.advance(wall: 30 * 24 * TestClock.hour)
        let queue = try Self.open(directory, clock, maxAge: .seconds(25 * 3600))
        #expect(await queue.readAllText().isEmpty, "48 h > 25 h: dropped")
        #expect(queue.metrics.dropped[.age, default: 0] == 2)
    }
}
