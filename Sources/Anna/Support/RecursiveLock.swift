#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A recursive mutex: the focus-path state's one lock. Recursive because a task's
/// closure or a delegate on the same thread may call back into an analyzer.
///
/// Debug builds record the thread that holds it, so that code documented "under the
/// lock" checks that it is (``assertHeld()``); release builds record nothing.
// @unchecked: the mutex is the synchronization; the debug holder is written only under it.
package final class RecursiveLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    #if DEBUG
    /// The holder and how many times it took the lock; written only while it holds it.
    private var holder: pthread_t?
    private var depth = 0
    #endif

    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    @inline(__always)
    package func withLock<Value>(_ body: () throws -> Value) rethrows -> Value {
        pthread_mutex_lock(mutex)
        // Declared first, so it runs last: the debug bookkeeping below is undone
        // while the lock is still held.
        defer { pthread_mutex_unlock(mutex) }
        #if DEBUG
        holder = pthread_self()
        depth += 1
        defer {
            depth -= 1
            if depth == 0 { holder = nil }
        }
        #endif
        return try body()
    }

    /// Debug builds: traps unless the calling thread holds the lock. For state and
    /// functions documented "under the lock".
    @inline(__always)
    package func assertHeld(file: StaticString = #fileID, line: UInt = #line) {
        #if DEBUG
        // The lock is recursive: its holder takes it again at once, anyone else fails.
        guard pthread_mutex_trylock(mutex) == 0 else {
            preconditionFailure("the focus-path lock is held by another thread", file: file, line: line)
        }
        defer { pthread_mutex_unlock(mutex) }
        precondition(depth > 0 && holder.map { pthread_equal($0, pthread_self()) != 0 } == true,
                     "the focus-path lock is not held", file: file, line: line)
        #endif
    }
}
