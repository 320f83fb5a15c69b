import Foundation
import Testing

@testable import Anna

/// The launch's decisions as a value (issue 22): install, update and open events,
/// consent, session continuation, a fixed anonymous id, the app-version write. No
/// store, thread or clock: the stored identity and the time are inputs.
@Suite struct IdentityLaunchTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func settings(
        version: String = "2.0", build: String = "20", consent: Set<ConsentCategory> = [], tracks: Bool = true,
        fixed: String? = nil
    ) -> IdentityLaunch.Settings {
        .init(
            fixedAnonymousID: fixed, defaultConsent: consent, app: .init(version: version, build: build),
            tracksLifecycleEvents: tracks, sessionTimeout: 300)
    }

    @Test func aFirstLaunchIsInstalledThenOpenedAndWritesTheVersion() {
        let launch = IdentityLaunch(stored: StoredIdentity(anonymousID: "a"), settings: settings(), now: now)
        #expect(launch.isNew)
        #expect(launch.events.map(\.name) == ["Application Installed", "Application Opened"])
        #expect(launch.events.last?.parameters["from_background"] == .bool(false))
        #expect(launch.appPatch?.app?.version == "2.0" && launch.appPatch?.app?.build == "20")
    }

    @Test func anUpdateNamesThePreviousVersionAndTheSameVersionOnlyOpens() {
        let old = StoredIdentity(anonymousID: "a", appVersion: "1.0", appBuild: "10")
        let updated = IdentityLaunch(stored: old, settings: settings(), now: now)
        #expect(updated.events.map(\.name) == ["Application Updated", "Application Opened"])
        #expect(updated.events.first?.parameters["previous_version"] == .string("1.0"))
        #expect(updated.events.first?.parameters["previous_build"] == .string("10"))
        #expect(updated.appPatch != nil)

        let same = IdentityLaunch(stored: old, settings: settings(version: "1.0", build: "10"), now: now)
        #expect(same.events.map(\.name) == ["Application Opened"])
        #expect(same.appPatch == nil, "nothing to write")
        #expect(IdentityLaunch(stored: old, settings: settings(tracks: false), now: now).events.isEmpty)
    }

    @Test func aStoredConsentChoiceWinsOverTheConfigurationsDefault() {
        let none = IdentityLaunch(stored: StoredIdentity(), settings: settings(consent: [.analytics]), now: now)
        #expect(none.grantedConsent == [.analytics], "no choice stored: the default")
        let stored = StoredIdentity(grantedConsent: [])
        #expect(IdentityLaunch(stored: stored, settings: settings(consent: [.analytics]), now: now).grantedConsent == [])
    }

    @Test func aSessionContinuesWithinTheTimeoutOnly() {
        let recent = StoredIdentity(sessionID: 42, lastActivity: now.addingTimeInterval(-299))
        #expect(IdentityLaunch(stored: recent, settings: settings(), now: now).continuedSession?.id == 42)
        let stale = StoredIdentity(sessionID: 42, lastActivity: now.addingTimeInterval(-301))
        #expect(IdentityLaunch(stored: stale, settings: settings(), now: now).continuedSession == nil)
        #expect(IdentityLaunch(stored: StoredIdentity(), settings: settings(), now: now).continuedSession == nil)
    }

    @Test func aFixedAnonymousIDReplacesTheStoredOne() {
        let launch = IdentityLaunch(stored: StoredIdentity(anonymousID: "stored"), settings: settings(fixed: "fixed"), now: now)
        #expect(launch.identity.anonymousID == "fixed")
    }
}
