#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The tasks running on one thread, innermost last: what ``Node/latestEvent()``
/// returns inside a task, and how deep tasks triggered tasks. Tasks are synchronous
/// and run on the recording thread, so the state is per thread (a pthread key);
/// only that thread reads or writes it.
final class RunningTasks {
    var stack: [(node: Node, event: FocusEvent)] = []

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
            Unmanaged<RunningTasks>.fromOpaque(pointer).release()
            #else
            if let pointer { Unmanaged<RunningTasks>.fromOpaque(pointer).release() }
            #endif
        }
        return key
    }()

    /// This thread's state, created on first use.
    static var current: RunningTasks {
        if let existing { return existing }
        let created = RunningTasks()
        pthread_setspecific(key, Unmanaged.passRetained(created).toOpaque())
        return created
    }

    /// This thread's state, if a task ever ran on it.
    static var existing: RunningTasks? {
        pthread_getspecific(key).map { Unmanaged<RunningTasks>.fromOpaque($0).takeUnretainedValue() }
    }
}
