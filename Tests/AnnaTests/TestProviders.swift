import Anna
import Foundation

/// Throws on every batch.
struct ThrowingProvider: AnalyticsProvider {
    struct Failure: Error {}
    var name: String { "ThrowingProvider" }
    func receive(_ batch: [AnalyticsEnvelope]) async throws { throw Failure() }
}

/// Blocks its thread for a while on every batch, as a synchronous SDK might.
struct SleepingProvider: AnalyticsProvider {
    var name: String { "SleepingProvider" }
    let pause: TimeInterval
    func receive(_ batch: [AnalyticsEnvelope]) async throws { usleep(useconds_t(pause * 1_000_000)) }
}

/// Blocks its thread in `receive` until opened; counts what it received.
final class GateProvider: AnalyticsProvider, @unchecked Sendable {
    var name: String { "GateProvider" }
    private let gate = DispatchSemaphore(value: 0)
    private let entered = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var received = 0
    private var suspends = 0

    var count: Int { lock.withLock { received } }
    /// How many times the service suspended it.
    var suspended: Int { lock.withLock { suspends } }

    func suspend() async { lock.withLock { suspends += 1 } }

    func receive(_ batch: [AnalyticsEnvelope]) async throws {
        entered.signal()
        gate.wait()
        lock.withLock { received += batch.count }
    }

    /// Waits until a batch is inside `receive`.
    func waitUntilBlocked() { entered.wait() }

    /// Lets every current and future batch through.
    func open() { for _ in 0..<1000 { gate.signal() } }
}

/// Takes a while to purge; counts events received after a purge.
final class SlowPurgeProvider: AnalyticsProvider, @unchecked Sendable {
    var name: String { "SlowPurgeProvider" }
    private let lock = NSLock()
    private var purgeCount = 0
    private var afterPurge = 0

    var purges: Int { lock.withLock { purgeCount } }
    var receivedAfterPurge: Int { lock.withLock { afterPurge } }

    func receive(_ batch: [AnalyticsEnvelope]) async throws {
        lock.withLock { if purgeCount > 0 { afterPurge += batch.count } }
    }

    func purge() async {
        try? await Task.sleep(for: .milliseconds(100))
        lock.withLock { purgeCount += 1 }
    }
}

/// A stage that blocks the pipeline's thread on its first event until opened.
final class BlockingStage: AnalyticsStage, @unchecked Sendable {
    let phase = AnalyticsStagePhase.before
    private let gate = DispatchSemaphore(value: 0)
    private let entered = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var blocked = false

    func process(_ envelope: inout AnalyticsEnvelope) -> Bool {
        let first = lock.withLock { () -> Bool in
            defer { blocked = true }
            return !blocked
        }
        if first {
            entered.signal()
            gate.wait()
        }
        return true
    }

    func waitUntilBlocked() { entered.wait() }
    func open() { gate.signal() }
}

/// Collects what the error handler receives.
final class ErrorLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [AnalyticsError] = []
    var errors: [AnalyticsError] { lock.withLock { stored } }
    var handler: @Sendable (AnalyticsError) -> Void { { error in self.lock.withLock { self.stored.append(error) } } }
}

extension AnalyticsEvent {
    static func numbered(thread: Int, sequence: Int) -> AnalyticsEvent {
        AnalyticsEvent(name: "numbered", parameters: ["thread": .int(thread), "sequence": .int(sequence)])
    }

    static let categorySelected = AnalyticsEvent(name: "categorySelected")

    static func categoryAdded(categoryTitle: String, itemCount: Int) -> AnalyticsEvent {
        AnalyticsEvent(name: "categoryAdded", parameters: ["categoryTitle": .string(categoryTitle), "itemCount": .int(itemCount)])
    }
}

extension AnalyticsService.Configuration {
    /// A configuration with a fixed context, so tests do not depend on the machine.
    static func test(
        grantedConsent: Set<ConsentCategory> = [.necessary, .analytics],
        violationPolicy: ViolationPolicy = .send,
        stages: [any AnalyticsStage] = [],
        errorHandler: (@Sendable (AnalyticsError) -> Void)? = nil
    ) -> Self {
        Self(
            grantedConsent: grantedConsent,
            violationPolicy: violationPolicy,
            stages: stages,
            context: AnalyticsContext(app: .init(name: "Tests", version: "1.0"), os: .init(name: "Linux", version: "6.0")),
            anonymousID: "anonymous-1",
            errorHandler: errorHandler
        )
    }
}
