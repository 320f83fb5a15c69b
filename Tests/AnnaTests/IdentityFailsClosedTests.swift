@_spi(Generated) import Anna
import AnnaTesting
import Foundation
import Testing

/// Consent fails closed: launch 1 makes a choice, the file is damaged, and launch 2,
/// with a provider and events, must collect nothing, keep the file as it was and tell
/// the app once. Real files, real launches of the service.
@Suite struct IdentityFailsClosedTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("anna-failsclosed-\(UUID().uuidString)")
    var file: URL { directory.appendingPathComponent("identity.json") }

    /// What launch 1 chose.
    enum Choice: CaseIterable {
        /// Grants marketing, then opts out.
        case optedOut
        /// Grants analytics and withholds marketing, which the configuration grants by default.
        case marketingWithheld
    }

    /// What is done to the file between the launches.
    enum Damage: CustomStringConvertible {
        case truncated(at: Int)
        case randomBytes
        /// `version: 2`, the choices grouped under a new key, `anonymousID` where it was.
        case newerLayout
        /// `version: 2` with the current keys kept and keys of its own.
        case newerAdditive
        case directory

        var description: String {
            switch self {
            case .truncated(let offset): "truncated at \(offset)"
            case .randomBytes: "random bytes"
            case .newerLayout: "a newer layout"
            case .newerAdditive: "a newer additive layout"
            case .directory: "a directory in its place"
            }
        }
    }

    func service(_ recorder: RecordingProvider, errors: ErrorLog? = nil, store: (any IdentityStore)? = nil) -> AnalyticsService {
        AnalyticsService(providers: [recorder], configuration: .init(
            grantedConsent: [.necessary, .analytics, .marketing],
            context: AnalyticsContext(app: .init(name: "Tests", version: "1.0", build: "1")),
            errorHandler: errors?.handler, storageDirectory: directory, identityStore: store,
            tracksLifecycleEvents: true))
    }

    /// Launch 1: the app's choice, kept in `identity.json`; returns the file's bytes.
    func firstLaunch(_ choice: Choice) async throws -> Data {
        let analytics = service(RecordingProvider())
        analytics.identify(userID: "first")
        switch choice {
        case .optedOut:
            analytics.grant(.marketing)
            await analytics.optOut()
        case .marketingWithheld:
            analytics.setConsent([.necessary, .analytics])
        }
        await analytics.shutdown()
        return try Data(contentsOf: file)
    }

    /// Launch 2 reports analytics and marketing events, an identify and a screen.
    func secondLaunch(store: (any IdentityStore)? = nil) async -> (recorder: RecordingProvider, errors: [AnalyticsError]) {
        let recorder = RecordingProvider()
        let errors = ErrorLog()
        let analytics = service(recorder, errors: errors, store: store)
        for index in 0..<10 {
            analytics.report(AnalyticsEvent(name: "viewed", parameters: ["index": .int(index)]))
            analytics.report(AnalyticsEvent(name: "promo", metadata: .init(consent: .marketing)))
        }
        analytics.identify(userID: "second")
        analytics.screen(AnalyticsScreen(name: "Home"))
        await analytics.shutdown()
        return (recorder, errors.errors)
    }

    func damage(_ damage: Damage, of original: Data) throws {
        let anonymousID = try #require(
            (try JSONSerialization.jsonObject(with: original) as? [String: Any])?["anonymousID"] as? String)
        try? FileManager.default.removeItem(at: file)
        switch damage {
        case .truncated(let offset):
            try original.prefix(offset).write(to: file)
        case .randomBytes:
            var generator = SystemRandomNumberGenerator()
            try Data((0..<original.count).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: file)
        case .newerLayout:
            try Data(#"{"version":2,"anonymousID":"\#(anonymousID)","choices":{"optedOut":true,"consent":["necessary"]}}"#.utf8)
                .write(to: file)
        case .newerAdditive:
            var object = try #require(try JSONSerialization.jsonObject(with: original) as? [String: Any])
            object["version"] = 2
            object["choices"] = ["optedOut": true]
            try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).write(to: file)
        case .directory:
            try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
            try Data("inside".utf8).write(to: file.appendingPathComponent("kept"))
        }
    }

    /// What the file is now, to compare before and after: its bytes and mode, or a
    /// directory's listing.
    func snapshot() throws -> String {
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        let mode = (attributes[.posixPermissions] as? Int).map { String($0, radix: 8) } ?? "?"
        if attributes[.type] as? FileAttributeType == .typeDirectory {
            return "directory \(mode) \(try FileManager.default.contentsOfDirectory(atPath: file.path).sorted())"
        }
        return "file \(mode) \(try Data(contentsOf: file).base64EncodedString())"
    }

    /// Launch 2 over a damaged file: nothing reaches the provider, the file is as it
    /// was, nothing was written beside it, and the error handler heard of it once.
    func expectFailsClosed(_ damage: Damage, after choice: Choice, original: Data, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try self.damage(damage, of: original)
        let before = try snapshot()
        let (recorder, errors) = await secondLaunch()
        #expect(recorder.allEnvelopes.count == 0, "\(choice), \(damage): \(recorder.allEnvelopes.map(\.event.name))", sourceLocation: sourceLocation)
        #expect(try snapshot() == before, "\(choice), \(damage): the file changed", sourceLocation: sourceLocation)
        let reported = errors.filter { $0.code == .identityStore }
        #expect(reported.count == 1, "\(choice), \(damage): \(errors.map(\.description))", sourceLocation: sourceLocation)
        #expect(reported.first?.description.contains("identity.json") == true, sourceLocation: sourceLocation)
        let beside = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasPrefix("identity.json") && $0 != "identity.json" }
        #expect(beside.isEmpty, "\(choice), \(damage): \(beside)", sourceLocation: sourceLocation)
    }

    @Test(arguments: Choice.allCases)
    func truncationAtEveryByteNeverCollects(_ choice: Choice) async throws {
        let original = try await firstLaunch(choice)
        for offset in 0..<original.count {
            try await expectFailsClosed(.truncated(at: offset), after: choice, original: original)
        }
    }

    @Test(arguments: Choice.allCases)
    func randomBytesANewerLayoutAndADirectoryNeverCollect(_ choice: Choice) async throws {
        let original = try await firstLaunch(choice)
        for damage in [Damage.randomBytes, .newerLayout, .newerAdditive, .directory] {
            try await expectFailsClosed(damage, after: choice, original: original)
        }
    }

    @Test func aNewerVersionIsReportedWithBothVersions() async throws {
        let original = try await firstLaunch(.optedOut)
        try damage(.newerLayout, of: original)
        let (_, errors) = await secondLaunch()
        let error = try #require(errors.first { $0.code == .identityStore })
        #expect(error.description.contains("version 2") && error.description.contains("version 1"), "\(error)")
    }

    @Test(arguments: Choice.allCases)
    func aPermissionErrorNeverCollects(_ choice: Choice) async throws {
        let original = try await firstLaunch(choice)
        let store: FileIdentityStore
        if getuid() == 0 {
            // Root reads a file of mode 000: the refusal is injected where the store opens the file.
            store = FileIdentityStore(directory: directory, openForReading: { _ in
                errno = EACCES
                return -1
            })
        } else {
            try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: file.path)
            store = FileIdentityStore(directory: directory)
        }
        let before = try snapshot()
        let (recorder, errors) = await secondLaunch(store: store)
        #expect(recorder.allEnvelopes.count == 0, "\(recorder.allEnvelopes.map(\.event.name))")
        #expect(try snapshot() == before)
        #expect(errors.count == 1 && errors.first?.description.contains("Permission denied") == true, "\(errors)")
        try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        #expect(try Data(contentsOf: file) == original)
    }

    @Test func aNewerVersionIsLeftToItAfterTheAppChoosesToo() async throws {
        let original = try await firstLaunch(.optedOut)
        try damage(.newerLayout, of: original)
        let before = try snapshot()
        for _ in 0..<2 {
            let recorder = RecordingProvider()
            let errors = ErrorLog()
            let analytics = service(recorder, errors: errors)
            analytics.report(AnalyticsEvent(name: "held"))
            _ = await analytics.identity
            #expect(analytics.isOptedOut)
            analytics.optIn()
            analytics.report(AnalyticsEvent(name: "afterOptIn"))
            await analytics.shutdown()
            // This launch collects after the app's choice; the next is held again.
            #expect(recorder.events.map(\.name) == ["afterOptIn"])
            #expect(errors.errors.count == 1, "\(errors.errors)")
            #expect(try snapshot() == before)
        }
    }

    @Test func aConsentChoiceAloneIsWrittenStillOptedOut() async throws {
        let original = try await firstLaunch(.marketingWithheld)
        try damage(.randomBytes, of: original)
        let damaged = try Data(contentsOf: file)
        let recorder = RecordingProvider()
        var analytics = service(recorder)
        analytics.setConsent([.necessary, .analytics])
        analytics.report(AnalyticsEvent(name: "viewed"))
        await analytics.shutdown()
        #expect(recorder.allEnvelopes.count == 0)
        let stored = try #require(try FileIdentityStore(directory: directory).load())
        #expect(stored.isOptedOut && stored.grantedConsent == [.necessary, .analytics])
        let aside = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("identity.json.unreadable-") }
        #expect(try aside.map { try Data(contentsOf: directory.appendingPathComponent($0)) } == [damaged])

        // The next launch is held by the stored opt-out, without an error, until the app opts in.
        let errors = ErrorLog()
        let next = RecordingProvider()
        analytics = service(next, errors: errors)
        analytics.report(AnalyticsEvent(name: "held"))
        _ = await analytics.identity
        analytics.optIn()
        analytics.report(AnalyticsEvent(name: "afterOptIn"))
        analytics.report(AnalyticsEvent(name: "promo", metadata: .init(consent: .marketing)))
        await analytics.shutdown()
        #expect(next.events.map(\.name) == ["afterOptIn"])
        #expect(errors.errors.isEmpty)
    }

    // MARK: Controls

    @Test func anUndamagedOptOutCollectsNothing() async throws {
        _ = try await firstLaunch(.optedOut)
        let (recorder, errors) = await secondLaunch()
        #expect(recorder.allEnvelopes.isEmpty)
        #expect(errors.isEmpty)
    }

    @Test func anUndamagedWithheldConsentDropsOnlyItsCategory() async throws {
        _ = try await firstLaunch(.marketingWithheld)
        let (recorder, errors) = await secondLaunch()
        #expect(!recorder.allEnvelopes.map(\.event.name).contains("promo"))
        #expect(recorder.events.filter { $0.name == "viewed" }.count == 10)
        #expect(errors.isEmpty)
    }

    @Test func withoutAnOptOutEverythingIsDelivered() async throws {
        let analytics = service(RecordingProvider())
        analytics.identify(userID: "first")
        await analytics.shutdown()
        let (recorder, errors) = await secondLaunch()
        let names = recorder.allEnvelopes.map(\.event.name)
        #expect(names.filter { $0 == "viewed" }.count == 10 && names.filter { $0 == "promo" }.count == 10)
        #expect(names.contains("Home") && names.contains("Application Opened"))
        #expect(errors.isEmpty)
    }

    @Test func aNewInstallWithNoFileKeepsTodaysDefaults() async throws {
        let (recorder, errors) = await secondLaunch()
        let names = recorder.allEnvelopes.map(\.event.name)
        #expect(names.filter { $0 == "viewed" }.count == 10 && names.filter { $0 == "promo" }.count == 10)
        #expect(names.contains("Application Installed"))
        #expect(errors.isEmpty)
        let stored = try #require(try FileIdentityStore(directory: directory).load())
        #expect(stored.userID == "second" && !stored.isOptedOut && stored.grantedConsent == nil)
    }

    // MARK: Unknown keys and temporary files

    @Test func keysThisVersionDoesNotKnowSurviveARewrite() async throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(#"{"version":1,"anonymousID":"a","futureField":{"nested":[1,"two",null,2.5]},"futureFlag":true}"#.utf8)
            .write(to: file)
        let analytics = service(RecordingProvider())
        analytics.identify(userID: "u")
        await analytics.shutdown()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        #expect(object["userID"] as? String == "u" && object["anonymousID"] as? String == "a")
        #expect(object["futureFlag"] as? Bool == true)
        let nested = (object["futureField"] as? [String: Any])?["nested"] as? [Any]
        #expect(nested?.count == 4 && nested?[1] as? String == "two" && nested?[2] is NSNull)
        #expect((object["version"] as? NSNumber)?.intValue == 1)
    }

    @Test func temporaryFilesLeftByAKillAreRemovedAtTheNextOpen() async throws {
        _ = try await firstLaunch(.optedOut)
        let stale = ["identity.json.4242.tmp", "identity.json.1.tmp", "identity.json.99999.tmp"]
        for name in stale { try Data("{\"anon".utf8).write(to: directory.appendingPathComponent(name)) }
        try Data("not ours".utf8).write(to: directory.appendingPathComponent("notes.tmp"))
        let (recorder, _) = await secondLaunch()
        #expect(recorder.allEnvelopes.isEmpty)
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".tmp") }
        #expect(left == ["notes.tmp"])
    }
}
