#if canImport(os)
import os
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// State behind a lock that is held only for a few instructions.
///
/// `Synchronization.Mutex` needs iOS 18; this works from iOS 16 on Apple platforms
/// (`os_unfair_lock`) and with `pthread_mutex_t` elsewhere.
// @unchecked: `state` is read and written only while `lock` is held.
package final class LockedState<State>: @unchecked Sendable {
    #if canImport(os)
    private let lock: UnsafeMutablePointer<os_unfair_lock>
    #else
    private let lock: UnsafeMutablePointer<pthread_mutex_t>
    #endif
    private var state: State

    package init(_ state: State) {
        self.state = state
        #if canImport(os)
        lock = .allocate(capacity: 1)
        lock.initialize(to: os_unfair_lock())
        #else
        lock = .allocate(capacity: 1)
        lock.initialize(to: pthread_mutex_t())
        pthread_mutex_init(lock, nil)
        #endif
    }

    deinit {
        #if !canImport(os)
        pthread_mutex_destroy(lock)
        #endif
        lock.deinitialize(count: 1)
        lock.deallocate()
    }

    /// Runs `body` with exclusive access to the state.
    @inline(__always)
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        #if canImport(os)
        os_unfair_lock_lock(lock)
        defer { os_unfair_lock_unlock(lock) }
        #else
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        #endif
        return try body(&state)
    }
}
