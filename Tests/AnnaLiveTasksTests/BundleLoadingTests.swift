// Signed bundles need swift-crypto: Anna's `LiveTasks` trait (`swift test --traits LiveTasks`; CI enables all traits).
#if LiveTasks
@_spi(Generated) import Anna
@_spi(Generated) import AnnaFocusPaths
import AnnaLiveTasks
import AnnaTesting
import Crypto
import Foundation
import Testing

/// A signed bundle swaps a manager's tasks; every way a bundle can be wrong is refused
/// with its own error and the old tasks stay.
@Suite(.timeLimit(.minutes(10))) struct BundleLoadingTests {
    /// What `anna bundle Tests/AnnaLiveTasksTests/store.anna.yml` writes (AnnaToolTests
    /// checks the tool still writes exactly this).
    static let payload = try! Data(contentsOf: URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().appending(path: "Fixtures/store.tasks.json"))

    let key = Curve25519.Signing.PrivateKey()
    var verifier: TaskBundleVerifier { TaskBundleVerifier(publicKey: key.publicKey) }

    func signed(_ payload: Data) throws -> Data { try SignedTaskBundle(signing: payload, with: key).encoded() }

    /// A manager running the compiled Store tasks, and a row and a button to drive them.
    struct App {
        let manager: Manager
        let delegate = RecordingManagerDelegate()
        let root: RootAnalyzer
        let list = Analyzer(owner: nil)
        let cell = Analyzer(owner: nil)
        let buy = Analyzer(owner: nil)

        init() {
            manager = Manager(service: nil, tasks: [.store])
            manager.delegate = delegate
            manager.delegateQueue = delegate.queue
            root = RootAnalyzer(manager: manager)
            root.setSubAnalyzer(list, for: "list")
            list.setSubAnalyzer(cell, for: "cell", index: 2)
            root.setSubAnalyzer(buy, for: "buy")
        }

        /// What selecting the row and tapping the button report now.
        func drive() async -> [AnalyticsEvent] {
            let before = delegate.results.count
            cell.record(.didSelect)
            buy.record(.targetAction)
            await delegate.drain()
            return Array(delegate.results.dropFirst(before))
        }
    }

    func refusal(_ data: Data, app: App, catalogs: [EventCatalog] = [.store], verifier: TaskBundleVerifier? = nil) async -> TaskBundleError? {
        let before = await app.drive()
        defer { withExtendedLifetime(before) {} }
        do {
            try app.manager.load(bundle: data, verifier: verifier ?? self.verifier, catalogs: catalogs)
            return nil
        } catch {
            // The old tasks still run.
            let after = await app.drive()
            #expect(after == before, "the tasks changed after a refused bundle")
            return error
        }
    }

    @Test func theToolsBundleChecksAgainstTheGeneratedCatalog() throws {
        let bundle = try TaskBundle(payload: Self.payload)
        #expect(bundle.sets.map(\.name) == ["Store"])
        #expect(bundle.sets[0].catalog == EventCatalog.store.fingerprint)
        #expect(bundle.sets[0].tasks == TaskDescription.store)
    }

    @Test func aValidBundleSwapsTheTasks() async throws {
        let app = App()
        #expect(await app.drive() == [.rowOpened(row: 2, list: "list"), .buttonTapped(label: "buy")])
        let changed = String(decoding: Self.payload, as: UTF8.self)
            .replacingOccurrences(of: #""with":{"label":"buy"}"#, with: #""with":{"label":"buy now"}"#)
            .replacingOccurrences(of: #""match":["list/cell/did-select"]"#, with: #""match":["list/cell/did-long-press"]"#)
        try app.manager.load(bundle: try signed(Data(changed.utf8)), verifier: verifier, catalogs: [.store])
        // The row's task now waits for another event; the button reports another label.
        #expect(await app.drive() == [.buttonTapped(label: "buy now")])
        app.cell.record("did-long-press")
        #expect(await app.delegate.waitForResults(count: 4).last == .rowOpened(row: 2, list: "list"))
    }

    @Test func aWrongSignatureIsRefused() async throws {
        let app = App()
        let other = TaskBundleVerifier(publicKey: Curve25519.Signing.PrivateKey().publicKey)
        #expect(await refusal(try signed(Self.payload), app: app, verifier: other)?.code == .badSignature)
        #expect(await refusal(Self.payload, app: app)?.code == .malformed)  // not signed at all
    }

    @Test func anotherCatalogIsRefused() async throws {
        let app = App()
        let other = String(decoding: Self.payload, as: UTF8.self).replacingOccurrences(of: EventCatalog.store.fingerprint, with: "0123456789abcdef")
        let error = await refusal(try signed(Data(other.utf8)), app: app)
        #expect(error?.code == .catalogMismatch)
        #expect(error?.message == "the bundle's 'Store' tasks were checked against event catalog 0123456789abcdef, the app has \(EventCatalog.store.fingerprint); build the bundle from the specs this app was built with")
        #expect(await refusal(try signed(Self.payload), app: app, catalogs: [])?.code == .unknownTaskSet)
    }

    @Test func anUnknownEventOrAWrongTypeIsRefused() async throws {
        let app = App()
        let unknown = String(decoding: Self.payload, as: UTF8.self).replacingOccurrences(of: #""report":"buttonTapped""#, with: #""report":"accountDeleted""#)
        let error = await refusal(try signed(Data(unknown.utf8)), app: app)
        #expect(error?.code == .invalidTasks)
        #expect(error?.message.hasSuffix("task 1 (store.anna.yml:23:5): the task reports 'accountDeleted', which Store does not declare") == true)
        let wrongType = String(decoding: Self.payload, as: UTF8.self).replacingOccurrences(of: #""row":"$index""#, with: #""row":"$name""#)
        let typeError = await refusal(try signed(Data(wrongType.utf8)), app: app)
        #expect(typeError?.code == .invalidTasks)
        #expect(typeError?.message.hasSuffix("task 0 (store.anna.yml:18:5): '$name' is a string; parameter 'row' takes int") == true)
    }

    @Test func oversizeAndTruncatedBundlesAreRefused() async throws {
        let app = App()
        var small = verifier
        small.maxBytes = 256
        #expect(await refusal(try signed(Self.payload), app: app, verifier: small)?.code == .tooLarge)
        let whole = try signed(Self.payload)
        #expect(await refusal(whole.prefix(whole.count - 20), app: app)?.code == .malformed)
        let truncatedPayload = Self.payload.prefix(Self.payload.count / 2)
        let error = await refusal(try signed(Data(truncatedPayload)), app: app)
        #expect(error?.code == .malformed)
        #expect(error?.message == "the signed payload is not a task bundle (not JSON)")
        let many = #"{"annaTasks":1,"sets":[{"name":"Store","catalog":"x","tasks":["# + Array(repeating: #"{"match":"a/x","report":"plain"}"#, count: TaskBundle.maxTasks + 1).joined(separator: ",") + "]}]}"
        var large = verifier
        large.maxBytes = 1 << 22
        #expect(await refusal(try signed(Data(many.utf8)), app: app, verifier: large)?.code == .tooLarge)
        let future = #"{"annaTasks":2,"sets":[]}"#
        #expect(await refusal(try signed(Data(future.utf8)), app: app)?.code == .unsupportedFormat)
    }
}
#endif
