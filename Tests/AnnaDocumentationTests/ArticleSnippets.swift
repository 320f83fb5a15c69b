// Generated from the Swift blocks marked `<!-- compiled: … -->` in README.md and
// Sources/Anna/Anna.docc/*.md. Do not edit: change the document, then run
// ANNA_RECORD_SNIPPETS=1 swift test --filter ArticleSnippetsFileTests (if this file no
// longer compiles, empty it first)
import Anna
import AnnaDestinations
import AnnaFocusPaths
import AnnaTesting
import AnnaWebContent
import Foundation
import Testing

// MARK: FocusPaths.md

/// A plain object on a focus path, without UIKit: a menu item under its menu.
final class MenuItem: Analyzable {
    lazy var analyzer = Analyzer(owner: self)   // typed `Analyzer`, the class
    let menu: Menu

    init(menu: Menu) { self.menu = menu }

    func parentConstitutor() -> (any FocusPathConstituting)? { menu }
}

/// The menu, at the top of its path.
final class Menu: Analyzable {
    lazy var analyzer = Analyzer(owner: self)
    func parentConstitutor() -> (any FocusPathConstituting)? { nil }
}

// MARK: ReportingAndProviders.md

/// Title Case event names (`categoryAdded` → `Category Added`) and parameters in
/// kebab case (`itemCount` → `item-count`).
struct TitleCaseMapper: EventMapper {
    func name(for eventName: String) -> String {
        words(of: eventName).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
    }

    func parameterName(for parameterName: String) -> String {
        words(of: parameterName).joined(separator: "-")
    }

    /// `categoryAdded` → `["category", "added"]`.
    private func words(of name: String) -> [String] {
        var words: [String] = [""]
        for character in name {
            if character.isUppercase, !(words.last ?? "").isEmpty { words.append("") }
            words[words.count - 1].append(contentsOf: character.lowercased())
        }
        return words
    }
}

// MARK: Testing.md


/// A list of categories, named "categories", with a search field and a button.
final class CategoriesScreen: HeadlessScreen {
    let table = HeadlessTable()
    let search = HeadlessTextField()
    let newButton = HeadlessButton()

    override func viewDidLoad() {
        view.addSubview(table)
        view.addSubview(search)
        view.addSubview(newButton)
        analyzer.setSubAnalyzer(table.analyzer, for: "tableView")
        analyzer.setSubAnalyzer(search.analyzer, for: "search")
        analyzer.setSubAnalyzer(newButton.analyzer, for: "new")
        analyzer.enable(naming: "categories")
    }
}

/// A category's detail, named "detail", with a rating slider.
final class CategoryDetailScreen: HeadlessScreen {
    let rating = HeadlessSlider()

    override func viewDidLoad() {
        view.addSubview(rating)
        analyzer.setSubAnalyzer(rating.analyzer, for: "rating")
        analyzer.enable(naming: "detail")
    }
}

/// A screen that only names itself.
final class TitledScreen: HeadlessScreen {
    let title: String
    init(_ title: String) {
        self.title = title
        super.init()
    }
    override func viewDidLoad() { analyzer.enable(naming: title) }
}

/// The documents' statements, each run as a test.
@Suite struct ArticleSnippets {
    /// README.md, Swift block 1.
    @Test func readme1() async throws {

        let analytics = AnalyticsService(providers: [LogProvider()])
        analytics.report(.categoryAdded(categoryTitle: "Books", itemCount: 3, source: .manual))
        analytics.report(event: .categorySelected)   // the article's spelling
        await analytics.flush()                       // every provider took every event
    }

    /// README.md, Swift block 2.
    @Test func readme2() async throws {

        let recorder = RecordingProvider()
        let analytics = AnalyticsService(providers: [recorder])
        analytics.report(.categoryAdded(categoryTitle: "Books", itemCount: 3, source: .manual))
        await analytics.flush()
        #expect(recorder.events == [.categoryAdded(categoryTitle: "Books", itemCount: 3, source: .manual)])
    }

    /// Destinations.md, Swift block 1.
    @Test func destinations1() async throws {

        let folder = FileManager.default.temporaryDirectory.appending(path: "anna-destinations-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        // One folder per provider: one queue each, so one vendor down delays no other.
        let amplitude = try DurableProvider(
            collector: .amplitude(apiKey: "YOUR_AMPLITUDE_API_KEY", region: .eu),
            storage: .directory(folder.appending(path: "amplitude")))
        let mixpanel = try DurableProvider(
            collector: .mixpanel(token: "YOUR_MIXPANEL_PROJECT_TOKEN", region: .eu),
            storage: .directory(folder.appending(path: "mixpanel")))
        let posthog = try DurableProvider(
            collector: .posthog(projectAPIKey: "phc_YOUR_PROJECT_API_KEY",
                                host: .selfHosted(URL(string: "https://posthog.example.com")!)),
            storage: .directory(folder.appending(path: "posthog")))
        let analytics = AnalyticsService(providers: [amplitude, mixpanel, posthog])
        #expect(posthog.options.receivedKinds.count == 5)
        #expect(mixpanel.endpoint.absoluteString == "https://api-eu.mixpanel.com/track?strict=1")
        #expect(amplitude.name == "AmplitudeProvider")
        await analytics.shutdown()
        // Every vendor's drops are in the service's one loss count, under the provider's name.
        #expect(analytics.metrics.lost["MixpanelProvider"] == [:])
    }

    /// DurableDelivery.md, Swift block 1.
    @Test func durableDelivery1() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "anna-pii-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let ownCollector = try DurableProvider(
            endpoint: URL(string: "https://collector.example.com/v1/batch")!,
            writeKey: "YOUR_WRITE_KEY",
            storage: .directory(folder),
            options: ProviderOptions(
                mapper: SnakeCaseEventMapper(),         // names as the warehouse wants them
                receivesPII: true,                      // the app's own collector may receive PII
                receivedKinds: [.track]))               // replaced by the collector's: every kind
        #expect(ownCollector.options.receivesPII)
        #expect(ownCollector.options.receivedKinds == Set(AnalyticsEnvelope.Kind.allCases))
        await ownCollector.shutdown()
    }

    /// DurableDelivery.md, Swift block 2.
    @Test func durableDelivery2() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "anna-http-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let http = try DurableProvider(
            endpoint: URL(string: "https://collector.example.com/v1/batch")!,
            writeKey: "YOUR_WRITE_KEY",
            storage: .directory(folder),
            configuration: DurableProvider.Configuration(
                flushAt: 50,                            // events that start an upload (20)
                flushInterval: .seconds(10),            // the longest an event waits for one (30 s)
                maxBatchCount: 200,                     // events per request (500)
                compressesRequests: true,               // gzip bodies (the default)
                queue: DeliveryStorage.Configuration(
                    maxBytes: 16 << 20,                 // the disk cap (64 MiB)
                    maxAge: .seconds(3 * 24 * 3600),    // the age cap (7 days)
                    lockPolicy: .whileRunning,          // .aroundIO in an app extension
                    syncMode: .barrier),                // .full to survive a sudden power loss
                errorHandler: { error in print("delivery: \(error)") }))
        #expect(http.configuration.queue.maxBytes == 16 << 20)
        await http.shutdown()
    }

    /// FocusPaths.md, Swift block 1.
    @Test func focusPaths1() async throws {
        let analytics = AnalyticsService(providers: [])
        let manager = Manager(service: analytics, tasks: [])
        let delegate = RecordingManagerDelegate()
        manager.delegate = delegate
        manager.delegateQueue = delegate.queue
        manager.match("row/did-select") { node in
            AnalyticsEvent(name: "rowSelected", parameters: ["row": .int(node.index ?? -1)])
        }
        manager.match("row/detail/appeared") { node in
            AnalyticsEvent(name: "detailShown", parameters: ["path": .string(node.path)])
        }

        let root = AnalyzerScope.root(manager)
        let list = AnalyzerScope(name: "products", parent: root)
        list.appeared()
        let rows = (0..<3).map { AnalyzerScope(name: "row", parent: list, index: $0) }
        rows.forEach { $0.appeared() }
        rows[2].selected()
        let detail = AnalyzerScope(name: "detail", parent: list, placement: .pushed)
        detail.appeared()

        let results = await delegate.waitForResults(count: 2)
        #expect(results == [
            AnalyticsEvent(name: "rowSelected", parameters: ["row": 2]),
            AnalyticsEvent(name: "detailShown", parameters: ["path": "/products/row/detail"]),
        ])
        #expect(manager.inspectNode(at: "/products/row", index: 2) { $0.isVisible() } == true)
    }

    /// IdentityConsentAndLifecycle.md, Swift block 1.
    @Test func identityConsentAndLifecycle1() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "anna-consent-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }

        // A first launch: the user declines analytics.
        let firstLaunch = AnalyticsService(providers: [], configuration: .init(storageDirectory: directory))
        firstLaunch.revoke(.analytics)
        await firstLaunch.shutdown()

        // The next launch grants analytics by default; the stored choice wins.
        let nextLaunch = AnalyticsService(
            providers: [], configuration: .init(grantedConsent: [.necessary, .analytics], storageDirectory: directory))
        #expect(await nextLaunch.identity.grantedConsent == [.necessary])   // once the stored choice is read
        #expect(nextLaunch.grantedConsent == [.necessary])
        await nextLaunch.shutdown()
    }

    /// IdentityConsentAndLifecycle.md, Swift block 2.
    @Test func identityConsentAndLifecycle2() async throws {
        let lifecycle = AppLifecycle()
        let recorder = RecordingProvider()
        let analytics = AnalyticsService(providers: [recorder], configuration: .init(lifecycle: lifecycle))
        analytics.report(.categorySelected)
        lifecycle.send(.background)     // returns at once; the flush runs in the background window
        await analytics.flush()         // returns once every provider took everything reported before it
        #expect(recorder.events == [.categorySelected])
    }

    /// LiveTasks.md, Swift block 1.
    @Test func liveTasks1() async throws {
        let analytics = AnalyticsService(providers: [])
        let manager = Manager(service: analytics, tasks: [.catalog])
        let spec = FileManager.default.temporaryDirectory.appending(path: "reload-\(UUID().uuidString).anna.yml")
        defer { try? FileManager.default.removeItem(at: spec) }
        try """
            anna: 1
            namespace: Catalog
            tasks:
              - match: products/row/did-select
                report: categorySelected
            """.write(to: spec, atomically: true, encoding: .utf8)
        try manager.reloadTasks(from: spec.path, catalog: .catalog)

        // A mistake names its place; the running tasks stay.
        try """
            anna: 1
            namespace: Catalog
            tasks:
              - match: products/row/did-select
                report: categorySelectd
            """.write(to: spec, atomically: true, encoding: .utf8)
        #expect(throws: TaskError.self) { try manager.reloadTasks(from: spec.path, catalog: .catalog) }
        do {
            try manager.reloadTasks(from: spec.path, catalog: .catalog)
        } catch {
            #expect(error.message.hasPrefix("\(spec.path):5:13: error: the tasks were not reloaded:"))
        }

        // Watched: the callback says when an edit took effect.
        let (reloads, continuation) = AsyncStream.makeStream(of: Result<String, TaskError>.self)
        let watcher = manager.watchSpec(at: spec.path, catalog: .catalog, every: .milliseconds(20)) { result in
            continuation.yield(result)
        }
        try """
            anna: 1
            namespace: Catalog
            tasks:
              - match: products/row/did-select
                report: categorySelected
            """.write(to: spec, atomically: true, encoding: .utf8)
        var iterator = reloads.makeAsyncIterator()
        #expect(await iterator.next() == .success(spec.path))
        watcher.stop()
    }

    /// PlansOverTime.md, Swift block 1.
    @Test func plansOverTime1() async throws {
        var context = AnalyticsContext.current()
        context.planBranch = "main"
        let analytics = AnalyticsService(providers: [LogProvider()], configuration: .init(context: context))
        analytics.report(AnalyticsEvent(name: "songPlayed", metadata: .init(
            plan: AnalyticsEvent.PlanReference(name: "Music", version: "2.4.0", eventVersion: "2.0.0"))))
        await analytics.shutdown()
    }

    /// ReportingAndProviders.md, Swift block 1.
    @Test func reportingAndProviders1() async throws {

        /// Keeps the first three events and counts the rest as refused.
        final class CappedProvider: AnalyticsProvider, @unchecked Sendable {
            private let lock = NSLock()                  // guards the two counts
            private var kept = 0, refused = 0
            var droppedEvents: [DropReason: Int] { lock.withLock { refused > 0 ? [.rejected: refused] : [:] } }
            func receive(_ batch: [AnalyticsEnvelope]) async throws {
                lock.withLock {
                    for _ in batch { if kept < 3 { kept += 1 } else { refused += 1 } }
                }
            }
        }

        let analytics = AnalyticsService(providers: [CappedProvider()])
        for _ in 0..<5 { analytics.report(AnalyticsEvent(name: "Tapped")) }
        await analytics.flush()
        #expect(analytics.metrics.lost["CappedProvider"] == [.rejected: 2])
    }

    /// ReportingAndProviders.md, Swift block 2.
    @Test func reportingAndProviders2() async throws {
        let recorder = RecordingProvider(options: ProviderOptions(mapper: TitleCaseMapper(), receivesPII: true))
        let analytics = AnalyticsService(providers: [recorder])
        analytics.report(.categoryAdded(categoryTitle: "Books", itemCount: 3, source: .manual))
        await analytics.flush()
        #expect(recorder.events.map(\.name) == ["Category Added"])
        #expect(recorder.events.first?.parameters["item-count"] == 3)
    }

    /// Testing.md, Swift block 1.
    @Test func testing1() async throws {
        let recorder = RecordingProvider()
        let analytics = AnalyticsService(providers: [recorder])
        let manager = Manager(service: analytics, tasks: [])
        let delegate = RecordingManagerDelegate()
        manager.delegate = delegate
        manager.delegateQueue = delegate.queue
        for pattern in [
            "categories/appeared", "search/did-become-first-responder", "tableView/did-begin-scroll",
            "tableView/cell/did-select", "cell/detail/appeared", "rating/target-action",
            "new/target-action", "composer/appeared", "settings/appeared",
        ] {
            manager.match(pattern) { node in
                var parameters: [String: AnalyticsValue] = ["path": .string(node.path)]
                if let row = node.index { parameters["row"] = .int(row) }
                return AnalyticsEvent(name: pattern, parameters: parameters)
            }
        }
        let application = HeadlessApplication(manager: manager)
        let categories = CategoriesScreen()
        let navigation = HeadlessNavigationController(root: categories)
        let tabs = HeadlessTabBarController(tabs: [navigation, TitledScreen("settings")])

        application.window.show(tabs)                                  // the first tab appears
        categories.table.display(sections: [["Books", "Music"], ["Films"]])  // every row: will-display
        application.window.makeFirstResponder(categories.search)       // the user edits the search field
        application.window.makeFirstResponder(nil)                     // and leaves it
        categories.table.beginScrolling()                              // scrolls the list
        categories.table.selectRow(0, section: 1)                      // taps "Films": the row is focused
        let detail = CategoryDetailScreen()
        navigation.push(detail)                                        // lands under the row
        detail.rating.drag(through: [0.2, 0.6, 1.0])                   // one target-action for the drag
        navigation.pop()                                               // categories appears again
        categories.newButton.tap()                                     // touch down, touch up inside: once
        categories.present(TitledScreen("composer"), style: .sheet)    // lands under the button; covers categories
        categories.dismissPresented()                                  // categories is visible again
        tabs.select(1)                                                 // the settings tab appears

        let results = await delegate.waitForResults(count: 11)
        #expect(results.map(\.name) == [
            "categories/appeared", "search/did-become-first-responder", "tableView/did-begin-scroll",
            "tableView/cell/did-select", "cell/detail/appeared", "rating/target-action",
            "categories/appeared", "new/target-action", "composer/appeared", "categories/appeared",
            "settings/appeared",
        ])
        #expect(results[3].parameters == ["path": "/categories/tableView/cell", "row": 0])
        #expect(results[4].parameters["path"] == "/categories/tableView/cell/detail")
        #expect(results[8].parameters["path"] == "/categories/new/composer")
        await analytics.flush()
        #expect(recorder.events == results)
    }

    /// Testing.md, Swift block 2.
    @Test func testing2() async throws {
        let analytics = AnalyticsService(providers: [])
        let manager = Manager(service: analytics, tasks: [])
        let delegate = RecordingManagerDelegate()
        manager.delegate = delegate
        manager.delegateQueue = delegate.queue
        for pattern in ["cell/appeared", "cell/did-select"] {
            manager.match(pattern) { node in AnalyticsEvent(name: pattern, parameters: ["row": .int(node.index ?? -1)]) }
        }
        let application = HeadlessApplication(manager: manager)
        let categories = CategoriesScreen()
        application.window.show(categories)

        // The app's delegate class implements didSelect only, as a table view delegate may.
        let selectsOnly = HeadlessDelegateClass(name: "CategoriesDelegate", methods: [.didSelect: { _, _ in }])
        categories.table.delegate = HeadlessDelegate(of: selectsOnly)
        categories.table.display(rows: ["Books", "Music"])
        categories.table.select(row: 1)

        let results = await delegate.waitForResults(count: 1)
        #expect(results == [AnalyticsEvent(name: "cell/did-select", parameters: ["row": 1])])
    }

    /// WebContent.md, Swift block 1.
    @Test func webContent1() async throws {

        let analytics = AnalyticsService(providers: [LogProvider()])
        let bridge = WebContentBridge(
            service: analytics, catalog: .catalog,
            configuration: .init(allowedOrigins: [WebContentOrigin(scheme: "https", host: "checkout.example.com")]))
        let channel = bridge.makeChannel()
        let page = WebContentOrigin(scheme: "https", host: "checkout.example.com")
        #expect(channel.receive(#"{"anna":1,"type":"track","event":"categorySelected"}"#, from: page) == .accepted)
        #expect(channel.receive(#"{"anna":1,"type":"track","event":"categoryDeleted"}"#, from: page).refusalKind == .undeclaredEvent)
        #expect(analytics.metrics.dropped[.refusedByBridge] == 1)
    }
}
