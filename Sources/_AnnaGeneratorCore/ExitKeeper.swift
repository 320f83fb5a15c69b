import Foundation

/// Holds what a tool's process no longer needs but need not free: the process's exit
/// takes its memory back at once, where freeing a large syntax tree and model node by
/// node costs a millisecond. Compilers do the same (clang's `-disable-free`).
///
/// It holds the last values given only, so a tool that generates many specs in one
/// process keeps at most one spec's memory: the earlier ones are freed as before.
package enum ExitKeeper {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var kept: [Any] = []

    /// Keeps `values` until the process exits, letting go of those kept before.
    package static func keep(_ values: [Any]) {
        var released: [Any] = values
        lock.withLock { swap(&kept, &released) }
        _ = consume released  // the earlier values are freed here, outside the lock
    }

    /// How many values are kept, for tests.
    static var count: Int { lock.withLock { kept.count } }
}
