@_spi(Generated) import Anna
import AnnaTesting
import Foundation
import Testing

/// Identity, consent, sessions and global properties kept in real files across
/// services on one storage directory, as across launches of an app.
@Suite struct IdentityServiceTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("anna-identity-\(UUID().uuidString)")
    }

    func launch(
        _ recorder: RecordingProvider, version: String = "1.0", build: String = "1", errors: ErrorLog? = nil,
        tracksLifecycle: Bool = false, lifecycle: AppLifecycle? = nil, grantedConsent: Set<ConsentCategory> = [.necessary, .analytics]
    ) -> AnalyticsService {
        AnalyticsService(providers: [recorder], configuration: .init(
            grantedConsent: grantedConsent,
            context: AnalyticsContext(app: .init(name: "Tests", version: version, build: build)),
            errorHandler: errors?.handler,
            storageDirectory: directory, lifecycle: lifecycle, tracksLifecycleEvents: tracksLifecycle))
    }

    var storedIdentity: StoredIdentity? {
        get throws { try FileIdentityStore(directory: directory).load() }
    }

    @Test func identityAndSessionSurviveARestart() async throws {
        let first = RecordingProvider()
        var analytics = launch(first)
        analytics.identify(userID: "user-1", traits: [UserTrait(name: "email", value: "a@example.com")])
        analytics.report(.categorySelected)
        await analytics.shutdown()
        let before = try #require(first.calls(.track).first)
        #expect(before.userID == "user-1" && !before.anonymousID.isEmpty)
        let identify = try #require(first.calls(.identify).first)
        #expect(identify.event.parameters == ["email": "a@example.com"] && identify.event.metadata.piiKeys == ["email"])

        let second = RecordingProvider()
        analytics = launch(second)
        analytics.report(.categorySelected)
        await analytics.shutdown()
        let after = try #require(second.calls(.track).first)
        #expect(after.anonymousID == before.anonymousID, "the anonymous id is created once")
        #expect(after.userID == "user-1")
        #expect(after.sessionID == before.sessionID, "a relaunch within the timeout continues the session")
        #expect(try storedIdentity?.traits == ["email": "a@example.com"])
    }

    @Test func anExpiredSessionStartsANewOne() async throws {
        let store = MemoryIdentityStore(StoredIdentity(
            anonymousID: "anon", sessionID: 1_000, lastActivity: Date(timeIntervalSinceNow: -3_600)))
        let recorder = RecordingProvider()
        let analytics = AnalyticsService(providers: [recorder], configuration: .init(identityStore: store))
        analytics.report(.categorySelected)
        await analytics.shutdown()
        let envelope = try #require(recorder.envelopes.first)
        #expect(envelope.anonymousID == "anon" && envelope.sessionID > 1_000)
        #expect(store.load()?.sessionID == envelope.sessionID)
    }

    @Test func resetGivesANewAnonymousIDAndForgetsTheUser() async throws {
        let recorder = RecordingProvider()
        var analytics = launch(recorder)
        analytics.identify(userID: "user-1", traits: [UserTrait(name: "plan", value: "pro", metadata: .init(isPII: false))])
        analytics.report(.categorySelected)
        analytics.reset()
        analytics.report(.categorySelected)
        await analytics.shutdown()
        let tracks = recorder.calls(.track)
        #expect(tracks.count == 2)
        #expect(tracks[0].anonymousID != tracks[1].anonymousID)
        #expect(tracks[0].userID == "user-1" && tracks[1].userID == nil)
        let stored = try #require(try storedIdentity)
        #expect(stored.anonymousID == tracks[1].anonymousID && stored.userID == nil && stored.traits.isEmpty)

        let next = RecordingProvider()
        analytics = launch(next)
        analytics.report(.categorySelected)
        await analytics.shutdown()
        #expect(next.envelopes.first?.anonymousID == tracks[1].anonymousID)
    }

    @Test func revokedConsentIsAppliedByTheNextLaunchBeforeItsFirstEvent() async throws {
        var analytics = launch(RecordingProvider())
        analytics.revoke(.analytics)
        await analytics.shutdown()

        let recorder = RecordingProvider()
        analytics = launch(recorder)
        analytics.report(.categorySelected)  // before the stored choice could be read
        analytics.report(AnalyticsEvent(name: "needed", metadata: .init(consent: .necessary)))
        await analytics.flush()
        #expect(recorder.events.map(\.name) == ["needed"])
        #expect(analytics.grantedConsent == [.necessary])
        #expect(analytics.metrics.dropped[.consent] == 1)

        analytics.grant(.analytics)
        await analytics.shutdown()
        #expect(try storedIdentity?.grantedConsent == [.necessary, .analytics])
    }

    @Test func consentChangedBeforeTheStateIsReadAppliesOverTheStoredChoice() async throws {
        try FileIdentityStore(directory: directory).save(StoredIdentity(grantedConsent: [.necessary, .marketing]))
        let recorder = RecordingProvider()
        let analytics = launch(recorder)
        analytics.grant(.analytics)
        analytics.report(.categorySelected)
        analytics.report(AnalyticsEvent(name: "promo", metadata: .init(consent: .marketing)))
        await analytics.shutdown()
        #expect(recorder.events.map(\.name) == ["categorySelected", "promo"])
        #expect(try storedIdentity?.grantedConsent == [.necessary, .marketing, .analytics])
    }

    @Test func optOutIsKeptAcrossLaunches() async throws {
        var analytics = launch(RecordingProvider())
        await analytics.optOut()
        await analytics.shutdown()

        let recorder = RecordingProvider()
        analytics = launch(recorder)
        analytics.report(.categorySelected)
        analytics.screen(AnalyticsScreen(name: "Home"))
        _ = await analytics.identity  // the stored choice is read: isOptedOut tells it
        #expect(analytics.isOptedOut)
        analytics.optIn()
        analytics.report(AnalyticsEvent(name: "afterOptIn"))
        await analytics.shutdown()
        #expect(recorder.allEnvelopes.map(\.event.name) == ["afterOptIn"])
        #expect(try storedIdentity?.isOptedOut == false)
    }

    @Test func aCorruptStateHoldsCollectionUntilTheAppChoosesAgain() async throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("identity.json")
        let damaged = Data("{\"anonymousID\": 42,".utf8)
        try damaged.write(to: file)
        let errors = ErrorLog()
        let recorder = RecordingProvider()
        let analytics = launch(recorder, errors: errors)
        analytics.report(.categorySelected)
        _ = await analytics.identity
        #expect(analytics.isOptedOut, "the launch holds collection as an opt-out")
        await analytics.flush()
        #expect(try Data(contentsOf: file) == damaged, "nothing is written before the app chooses")
        // The app asks the user again.
        analytics.setConsent([.necessary, .analytics])
        analytics.optIn()
        analytics.report(AnalyticsEvent(name: "afterOptIn"))
        await analytics.shutdown()
        #expect(errors.errors.count == 1)
        let error = try #require(errors.errors.first)
        #expect(error.code == .identityStore)
        #expect(error.description.contains("identity.json") && error.description.contains("damaged") && error.description.contains("optIn()"))
        #expect(recorder.events.map(\.name) == ["afterOptIn"])
        let stored = try #require(try storedIdentity)
        #expect(!stored.isOptedOut && stored.grantedConsent == [.necessary, .analytics])
        #expect(stored.anonymousID == recorder.envelopes.first?.anonymousID)
        let aside = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("identity.json.unreadable-") }
        #expect(aside.count == 1, "the damaged file is kept aside")
        #expect(try aside.first.map { try Data(contentsOf: directory.appendingPathComponent($0)) } == damaged)
    }

    @Test func callsReachProvidersAsTheirOwnKinds() async throws {
        let recorder = RecordingProvider()
        let trackOnly = RecordingProvider(name: "trackOnly", options: ProviderOptions())
        let analytics = AnalyticsService(providers: [recorder, trackOnly], configuration: .init(identityStore: MemoryIdentityStore()))
        analytics.identify(userID: "user-1", traits: [UserTrait(name: "email", value: "a@example.com")])
        analytics.screen(AnalyticsScreen(name: "Product Detail", properties: ["productID": "p1"]))
        analytics.group(groupID: "acme", traits: [GroupTrait(name: "employees", value: 12, metadata: .init(isPII: false))])
        analytics.alias(newUserID: "user-2")
        analytics.report(.categorySelected)
        await analytics.shutdown()

        #expect(recorder.allEnvelopes.map(\.kind) == [.identify, .screen, .group, .alias, .track])
        #expect(recorder.envelopes.map(\.kind) == [.track], "envelopes are the events'")
        recorder.expectScreens([AnalyticsScreen(name: "Product Detail", properties: ["productID": "p1"])])
        let group = try #require(recorder.calls(.group).first)
        #expect(group.groupID == "acme" && group.event.parameters == ["employees": 12] && group.userID == "user-1")
        let alias = try #require(recorder.calls(.alias).first)
        #expect(alias.previousID == "user-1" && alias.userID == "user-2")
        #expect(recorder.calls(.track).first?.userID == "user-2")

        // A provider that takes only track: the screen as `Screen Viewed`, the rest not at all, no PII.
        #expect(trackOnly.allEnvelopes.map(\.kind) == [.track, .track])
        #expect(trackOnly.events == [
            AnalyticsEvent(name: "Screen Viewed", parameters: ["name": "Product Detail", "productID": "p1"]),
            .categorySelected,
        ])
        #expect(analytics.metrics.reported == 5)
    }

    @Test func traitsFollowThePIIRules() async throws {
        let hashed = RecordingProvider(name: "hashed", options: ProviderOptions(
            piiHandling: .hash(salt: "s"), receivedKinds: Set(AnalyticsEnvelope.Kind.allCases)))
        let analytics = AnalyticsService(providers: [hashed], configuration: .init(identityStore: MemoryIdentityStore()))
        analytics.identify(userID: "u", traits: [
            UserTrait(name: "email", value: "a@example.com"),
            UserTrait(name: "plan", value: "pro", metadata: .init(isPII: false)),
        ])
        await analytics.shutdown()
        let traits = try #require(hashed.calls(.identify).first).event.parameters
        #expect(traits["plan"] == "pro")
        #expect(traits["email"] != nil && traits["email"] != "a@example.com")
    }

    @Test func globalPropertiesAreCarriedAndPersistedWhenTheSpecSaysSo() async throws {
        let recorder = RecordingProvider()
        var analytics = launch(recorder)
        analytics.setGlobal(AnalyticsGlobal(name: "theme", value: "dark", isPersisted: true))
        analytics.setGlobal(AnalyticsGlobal(name: "experiment", value: "b"))
        analytics.setGlobal(AnalyticsGlobal(name: "email", value: "a@example.com", metadata: .init(isPII: true)))
        analytics.report(.categorySelected)
        analytics.report(AnalyticsEvent(name: "themed", parameters: ["theme": "light"]))
        analytics.removeGlobal(AnalyticsGlobal.Key("experiment"))
        analytics.screen(AnalyticsScreen(name: "Home"))
        await analytics.shutdown()
        #expect(recorder.allEnvelopes.map(\.event.parameters) == [
            ["theme": "dark", "experiment": "b", "email": "a@example.com"],
            ["theme": "light", "experiment": "b", "email": "a@example.com"],
            ["theme": "dark", "email": "a@example.com"],
        ])
        #expect(recorder.allEnvelopes[0].event.metadata.piiKeys == ["email"])

        let next = RecordingProvider()
        analytics = launch(next)
        analytics.report(.categorySelected)
        #expect(await analytics.identity.globals == ["theme": "dark"])
        await analytics.shutdown()
        #expect(next.events.first?.parameters == ["theme": "dark"], "only persisted globals come back")
    }

    @Test func aGlobalBreakingItsConstraintIsNotSetUnderTheDropPolicy() async throws {
        let errors = ErrorLog()
        let recorder = RecordingProvider()
        let analytics = AnalyticsService(providers: [recorder], configuration: .init(
            violationPolicy: .drop, errorHandler: errors.handler, identityStore: MemoryIdentityStore()))
        let constraint = ParameterConstraint(maxLength: 3)
        analytics.setGlobal(AnalyticsGlobal(name: "code", value: "toolong", metadata: .init(isPII: false, constraint: constraint)))
        analytics.report(.categorySelected)
        await analytics.shutdown()
        #expect(recorder.events.first?.parameters == [:])
        #expect(errors.errors.map(\.code) == [.constraintViolated])
    }

    @Test func lifecycleEventsFollowInstallsAndUpdates() async throws {
        var recorder = RecordingProvider()
        var analytics = launch(recorder, tracksLifecycle: true)
        await analytics.shutdown()
        #expect(recorder.events.map(\.name) == ["Application Installed", "Application Opened"])
        #expect(recorder.events[1].parameters == ["from_background": false, "version": "1.0", "build": "1"])

        recorder = RecordingProvider()
        analytics = launch(recorder, tracksLifecycle: true)
        await analytics.shutdown()
        #expect(recorder.events.map(\.name) == ["Application Opened"])

        recorder = RecordingProvider()
        analytics = launch(recorder, version: "1.1", build: "7", tracksLifecycle: true)
        await analytics.shutdown()
        #expect(recorder.events.map(\.name) == ["Application Updated", "Application Opened"])
        #expect(recorder.events[0].parameters == [
            "version": "1.1", "build": "7", "previous_version": "1.0", "previous_build": "1",
        ])
    }

    @Test func identityReadsTheStateAsOfThePreviousCalls() async throws {
        let analytics = AnalyticsService(providers: [], configuration: .init(
            anonymousID: "fixed", identityStore: MemoryIdentityStore()))
        analytics.identify(userID: "u1", traits: [UserTrait(name: "name", value: "Ada")])
        analytics.identify(traits: [UserTrait(name: "age", value: 36, metadata: .init(isPII: false))])
        var identity = await analytics.identity
        #expect(identity.anonymousID == "fixed" && identity.userID == "u1")
        #expect(identity.traits == ["name": "Ada", "age": 36])
        analytics.identify(userID: "u2")
        identity = await analytics.identity
        #expect(identity.userID == "u2" && identity.traits.isEmpty, "another user's traits are not carried over")
        await analytics.shutdown()
    }

    @Test func traitsAreMappedAndCheckedByTheProvidersProfile() async throws {
        let firebase = RecordingProvider(name: "firebase", options: ProviderOptions(
            mapper: SnakeCaseEventMapper(), profile: .firebase, receivesPII: true,
            receivedKinds: Set(AnalyticsEnvelope.Kind.allCases)))
        let analytics = AnalyticsService(providers: [firebase], configuration: .init(identityStore: MemoryIdentityStore()))
        analytics.identify(userID: "u", traits: [UserTrait(name: "loyaltyTier", value: "gold")])
        analytics.group(groupID: "g", traits: [GroupTrait(name: "employeeCount", value: 3)])
        analytics.alias(newUserID: "v")
        await analytics.shutdown()
        let calls = firebase.allEnvelopes
        #expect(calls.map(\.kind) == [.identify, .group, .alias])
        #expect(calls.map(\.event.name) == ["", "", ""], "the calls keep no event name")
        #expect(calls[0].event.parameters == ["loyalty_tier": "gold"])
        #expect(calls[1].event.parameters == ["employee_count": 3])
    }

    @Test func anEventValueReportedAgainGetsTheGlobalsSetAtItsTime() async throws {
        let recorder = RecordingProvider()
        let analytics = AnalyticsService(providers: [recorder], configuration: .init(identityStore: MemoryIdentityStore()))
        let event = AnalyticsEvent.categoryAdded(categoryTitle: "Books", itemCount: 1)
        analytics.setGlobal(AnalyticsGlobal(name: "theme", value: "dark"))
        analytics.report(event)
        analytics.report(event)
        analytics.report(.categorySelected)
        analytics.setGlobal(AnalyticsGlobal(name: "theme", value: "light"))
        analytics.report(event)
        analytics.removeGlobal(AnalyticsGlobal.Key("theme"))
        analytics.report(event)
        await analytics.shutdown()
        #expect(recorder.events.map { $0.parameters["theme"] } == ["dark", "dark", "dark", "light", nil])
        #expect(recorder.events.map { $0.parameters["categoryTitle"] } == ["Books", "Books", nil, "Books", "Books"])
    }
}
