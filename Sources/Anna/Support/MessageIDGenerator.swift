import Foundation

/// Time-ordered unique identifiers, UUID version 7 (RFC 9562).
///
/// 48 bits of Unix time in milliseconds, then a 12-bit counter that keeps ids
/// strictly increasing within a millisecond (RFC 9562, method 1), then 62 random
/// bits. The random bits come from a xoshiro256** generator seeded from the system's
/// generator, so an id costs no system call. Not thread-safe: the pipeline owns one.
struct MessageIDGenerator {
    private var lastMilliseconds: UInt64 = 0
    private var counter: UInt64 = 0
    private var random: Xoshiro256

    init() {
        var system = SystemRandomNumberGenerator()
        random = Xoshiro256(seed: (system.next(), system.next(), system.next(), system.next()))
    }

    mutating func next(at date: Date) -> UUID {
        var milliseconds = UInt64(max(0, date.timeIntervalSince1970 * 1000))
        if milliseconds <= lastMilliseconds {
            // Same millisecond, or the clock went back: count on from the last id.
            milliseconds = lastMilliseconds
            counter += 1
            if counter > 0xFFF {
                milliseconds += 1
                counter = random.next() & 0x3FF
            }
        } else {
            counter = random.next() & 0x3FF  // leaves room to count within the millisecond
        }
        lastMilliseconds = milliseconds
        let tail = random.next()
        let high = milliseconds << 16 | 0x7000 | counter  // version 7
        let low = (tail & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000  // variant 10
        return UUID(uuid: (
            UInt8(truncatingIfNeeded: high >> 56), UInt8(truncatingIfNeeded: high >> 48),
            UInt8(truncatingIfNeeded: high >> 40), UInt8(truncatingIfNeeded: high >> 32),
            UInt8(truncatingIfNeeded: high >> 24), UInt8(truncatingIfNeeded: high >> 16),
            UInt8(truncatingIfNeeded: high >> 8), UInt8(truncatingIfNeeded: high),
            UInt8(truncatingIfNeeded: low >> 56), UInt8(truncatingIfNeeded: low >> 48),
            UInt8(truncatingIfNeeded: low >> 40), UInt8(truncatingIfNeeded: low >> 32),
            UInt8(truncatingIfNeeded: low >> 24), UInt8(truncatingIfNeeded: low >> 16),
            UInt8(truncatingIfNeeded: low >> 8), UInt8(truncatingIfNeeded: low)
        ))
    }
}

/// xoshiro256** by Blackman and Vigna: fast, statistically strong, not for secrets.
struct Xoshiro256: RandomNumberGenerator {
    private var state: (UInt64, UInt64, UInt64, UInt64)

    init(seed: (UInt64, UInt64, UInt64, UInt64)) {
        state = seed
        if state == (0, 0, 0, 0) { state.0 = 0x9E37_79B9_7F4A_7C15 }
    }

    mutating func next() -> UInt64 {
        let result = rotate(state.1 &* 5, 7) &* 9
        let shifted = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= shifted
        state.3 = rotate(state.3, 45)
        return result
    }

    private func rotate(_ value: UInt64, _ count: UInt64) -> UInt64 {
        (value << count) | (value >> (64 - count))
    }
}
