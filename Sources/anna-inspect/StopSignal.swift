#if Inspector
import Foundation

/// Waits for SIGINT, SIGTERM, or a stretch without collector requests.
enum StopSignal {
    /// Returns why it stopped: `SIGINT`, `SIGTERM`, or `idle for N s`.
    ///
    /// The sources' handlers only send a reason into a stream; the first one ends the
    /// wait, and the sources are cancelled here, by the one function that made them.
    static func wait(idleTimeout: Double?, lastActivity: @escaping @Sendable () -> Double) async -> String {
        let queue = DispatchQueue(label: "anna-inspect.stop")
        let (reasons, reason) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingOldest(1))
        var sources: [any DispatchSourceProtocol] = []
        for (number, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { reason.yield(name) }
            source.resume()
            sources.append(source)
        }
        if let idleTimeout {
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now() + .milliseconds(100), repeating: .milliseconds(100))
            timer.setEventHandler {
                if Date().timeIntervalSince1970 - lastActivity() >= idleTimeout {
                    reason.yield("idle for \(idleTimeout.formatted()) s")
                }
            }
            timer.resume()
            sources.append(timer)
        }
        var first = reasons.makeAsyncIterator()
        let stopped = await first.next() ?? "SIGTERM"
        for source in sources { source.cancel() }
        reason.finish()
        return stopped
    }
}
#endif
