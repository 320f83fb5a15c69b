#if Inspector
import Foundation

/// Waits for SIGINT, SIGTERM, or a stretch without collector requests.
enum StopSignal {
    /// What `wait` keeps alive until it returns; touched only on its serial queue.
    private final class Watch: @unchecked Sendable {  // used only on `queue`
        var sources: [any DispatchSourceProtocol] = []
        var continuation: CheckedContinuation<String, Never>?

        func finish(_ reason: String) {
            guard let continuation else { return }
            self.continuation = nil
            for source in sources { source.cancel() }
            sources = []
            continuation.resume(returning: reason)
        }
    }

    /// Returns why it stopped: `SIGINT`, `SIGTERM`, or `idle for N s`.
    static func wait(idleTimeout: Double?, lastActivity: @escaping @Sendable () -> Double) async -> String {
        let queue = DispatchQueue(label: "anna-inspect.stop")
        let watch = Watch()
        return await withCheckedContinuation { continuation in
            queue.async {
                watch.continuation = continuation
                for (number, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
                    signal(number, SIG_IGN)
                    let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                    source.setEventHandler { watch.finish(name) }
                    source.resume()
                    watch.sources.append(source)
                }
                if let idleTimeout {
                    let timer = DispatchSource.makeTimerSource(queue: queue)
                    timer.schedule(deadline: .now() + .milliseconds(100), repeating: .milliseconds(100))
                    timer.setEventHandler {
                        if Date().timeIntervalSince1970 - lastActivity() >= idleTimeout {
                            watch.finish("idle for \(idleTimeout.formatted()) s")
                        }
                    }
                    timer.resume()
                    watch.sources.append(timer)
                }
            }
        }
    }
}
#endif
