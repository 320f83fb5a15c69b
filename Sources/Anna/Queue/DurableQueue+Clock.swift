import Foundation

/// The time sources of a queue's age cap, injectable so that tests can jump the
/// wall clock and advance the monotonic one.
struct QueueClock: Sendable {
    /// Nanoseconds since a fixed, arbitrary origin; never goes back while the process runs.
    var monotonicNanoseconds: @Sendable () -> Int64
    /// Nanoseconds since 1970 by the wall clock, which may jump either way.
    var wallNanoseconds: @Sendable () -> Int64

    private static let origin = ContinuousClock.now

    /// `ContinuousClock` (which keeps counting while the device sleeps) and `Date`.
    static let system = QueueClock(
        monotonicNanoseconds: { origin.duration(to: .now).saturatingNanoseconds },
        wallNanoseconds: { Int64(exactly: (Date().timeIntervalSince1970 * 1e9).rounded()) ?? 0 })
}

extension DurableQueue {
    /// Queue time, what the age cap measures: monotonic time while a queue is open,
    /// plus the wall-clock gap between runs clamped to [0, 24 h]. A clock set forward
    /// by years therefore ages the backlog by a day at most, and a clock set back by
    /// none; real time passing while the queue runs ages it fully.
    ///
    /// A value owned by the writer (its queue).
    struct AgeClock {
        /// The longest wall-clock gap between two runs that counts.
        static let maxGap: Int64 = 24 * 3600 * 1_000_000_000
        let source: QueueClock
        private var base: Int64 = 0
        private var monotonicAtBase: Int64

        init(source: QueueClock) {
            self.source = source
            monotonicAtBase = source.monotonicNanoseconds()
        }

        /// Queue time now, in nanoseconds.
        func now() -> Int64 {
            base &+ max(0, source.monotonicNanoseconds() &- monotonicAtBase)
        }

        /// Continues from what an earlier run saved: its queue time then, plus the
        /// clamped wall-clock gap since, and never before the newest stamp.
        mutating func resume(from stamps: Stamps?) {
            guard let stamps else { return }
            let gap = min(max(0, source.wallNanoseconds() &- stamps.wallTime), Self.maxGap)
            let newest = stamps.segments.values.max() ?? 0
            let resumed = max(stamps.queueTime &+ gap, newest)
            if resumed > now() {
                base = resumed
                monotonicAtBase = source.monotonicNanoseconds()
            }
        }
    }

    /// What the `stamps` file holds: queue time and wall time when it was written, and
    /// each segment's newest record in queue time.
    ///
    /// ```
    /// version: UInt32 = 1 | queue time: Int64 | wall time: Int64 | count: UInt32
    /// count × (segment: UInt64 | stamp: Int64) | CRC-32 of all before: UInt32   (little-endian)
    /// ```
    struct Stamps: Equatable {
        var queueTime: Int64
        var wallTime: Int64
        var segments: [UInt64: Int64]

        func encoded() -> [UInt8] {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(28 + segments.count * 16)
            func put<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
            put(UInt32(1))
            put(queueTime)
            put(wallTime)
            put(UInt32(clamping: segments.count))
            for (id, stamp) in segments.sorted(by: { $0.key < $1.key }) {
                put(id)
                put(stamp)
            }
            put(CRC32.checksum(bytes))
            return bytes
        }

        /// `nil` for anything but an intact version-1 file; lengths are checked as
        /// `UInt64` before any conversion, so no bytes can trap.
        init?(decoding bytes: [UInt8]) {
            guard bytes.count >= 28 else { return nil }
            func load<T: FixedWidthInteger>(_ offset: Int, as type: T.Type) -> T {
                bytes.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: T.self)) }
            }
            let count = load(20, as: UInt32.self)
            guard load(0, as: UInt32.self) == 1, UInt64(count) * 16 + 28 == UInt64(bytes.count),
                CRC32.checksum(bytes[0..<bytes.count - 4]) == load(bytes.count - 4, as: UInt32.self)
            else { return nil }
            queueTime = load(4, as: Int64.self)
            wallTime = load(12, as: Int64.self)
            segments = [:]
            var offset = 24
            while offset + 16 <= bytes.count - 4 {
                segments[load(offset, as: UInt64.self)] = load(offset + 8, as: Int64.self)
                offset += 16
            }
        }

        init(queueTime: Int64, wallTime: Int64, segments: [UInt64: Int64]) {
            self.queueTime = queueTime
            self.wallTime = wallTime
            self.segments = segments
        }
    }
}
