@_spi(Generated) import Anna
import Dispatch
import Foundation
import Testing

/// `grantedConsent` and `isOptedOut` never block the caller: while the stored identity
/// is still being read they return the last known state, and the stored choice once
/// it is read.
@Suite struct ConsentSnapshotTests {
    /// A memory store whose reads and updates wait until the test opens it: a launch
    /// whose disk is slow.
    final class HeldIdentityStore: IdentityStore, @unchecked Sendable {
        private let stored: MemoryIdentityStore
        /// Signalled once by `open()`; each waiter signals it again for the next.
        private let gate = DispatchSemaphore(value: 0)

        init(_ identity: StoredIdentity) { stored = MemoryIdentityStore(identity) }

        func open() { gate.signal() }

        private func pass() {
            gate.wait()
            gate.signal()
        }

        func load() throws -> StoredIdentity? {
            pass()
            return stored.load()
        }

        func save(_ identity: StoredIdentity) throws {
            pass()
            stored.save(identity)
        }

        func update(_ change: (inout StoredIdentity?) -> Void) throws {
            pass()
            stored.update(change)
        }
    }

    /// What a reader thread saw, handed back under a lock.
    final class Readings: @unchecked Sendable {
        private let lock = NSLock()
        private var value: (consent: Set<ConsentCategory>, optedOut: Bool)?

        func set(_ consent: Set<ConsentCategory>, _ optedOut: Bool) { lock.withLock { value = (consent, optedOut) } }
        var current: (consent: Set<ConsentCategory>, optedOut: Bool)? { lock.withLock { value } }
    }

    /// Reads both getters on another thread; `nil` when they did not return within
    /// five seconds (the caller then opens the store, which lets them finish).
    func readWithoutWaiting(_ analytics: AnalyticsService) -> (consent: Set<ConsentCategory>, optedOut: Bool)? {
        let readings = Readings()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            readings.set(analytics.grantedConsent, analytics.isOptedOut)
            done.signal()
        }
        return done.wait(timeout: .now() + .seconds(5)) == .success ? readings.current : nil
    }

    @Test func theGettersReturnAtOnceWhileTheStoredIdentityIsRead() async {
        let store = HeldIdentityStore(StoredIdentity(grantedConsent: [.necessary], isOptedOut: true))
        let analytics = AnalyticsService(
            providers: [], configuration: .init(grantedConsent: [.necessary, .analytics], identityStore: store))
        // The load is held up until the store opens, so getters that waited for it
        // would not return in time.
        let reading = readWithoutWaiting(analytics)
        store.open()
        #expect(reading != nil, "grantedConsent or isOptedOut waited for the stored identity")
        // The last known state: the configuration's, until the stored choice is read.
        #expect(reading?.consent == [.necessary, .analytics])
        #expect(reading?.optedOut == false)

        #expect(await analytics.identity.grantedConsent == [.necessary])
        #expect(analytics.grantedConsent == [.necessary])
        #expect(analytics.isOptedOut)
        await analytics.shutdown()
    }

    @Test func aChangeMadeBeforeTheStoredIdentityIsReadShowsAtOnce() async {
        let store = HeldIdentityStore(StoredIdentity(grantedConsent: [.necessary, .marketing]))
        let analytics = AnalyticsService(providers: [], configuration: .init(identityStore: store))
        analytics.revoke(.analytics)
        let reading = readWithoutWaiting(analytics)
        store.open()
        #expect(reading?.consent == [.necessary])
        #expect(reading?.optedOut == false)
        // The revocation replays over the stored choice.
        #expect(await analytics.identity.grantedConsent == [.necessary, .marketing])
        #expect(analytics.grantedConsent == [.necessary, .marketing])
        await analytics.shutdown()
    }
}
