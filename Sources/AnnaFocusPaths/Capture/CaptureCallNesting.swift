/// One fact records once when hooked calls nest: a delegate subclass's hooked
/// implementation that calls `super`'s, itself hooked; a setter hooked on a class and
/// on its superclass. Each hook asks ``enter(_:)`` before it records and calls
/// ``leave(_:)`` after the original returns; only the outermost call of a key records.
///
/// Kept per thread by the platform adapter (UIKit calls arrive on the main thread).
package struct CaptureCallNesting: Sendable {
    /// What a call is about: the receiving object and the callback's name.
    package struct Key: Hashable, Sendable {
        package let receiver: ObjectIdentifier
        package let callback: String

        package init(receiver: ObjectIdentifier, callback: String) {
            self.receiver = receiver
            self.callback = callback
        }
    }

    private var depths: [Key: Int] = [:]

    package init() {}

    /// A hooked call begins; returns `true` when it is the outermost call of `key`,
    /// the one that records.
    package mutating func enter(_ key: Key) -> Bool {
        let depth = depths[key, default: 0]
        depths[key] = depth + 1
        return depth == 0
    }

    /// The hooked call of `key` returned.
    package mutating func leave(_ key: Key) {
        guard let depth = depths[key] else { return }
        if depth <= 1 { depths[key] = nil } else { depths[key] = depth - 1 }
    }

    /// Whether any call of `key` is under way.
    package func isInside(_ key: Key) -> Bool { depths[key] != nil }
}
