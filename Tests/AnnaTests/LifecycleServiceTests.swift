@_spi(Generated) import Anna
@_spi(Generated) import AnnaFocusPaths
import AnnaTesting
import Foundation
import Testing

/// The service following the app's lifecycle, driven by the headless application.
@Suite struct LifecycleServiceTests {
    /// The app's lifecycle and the window standing for its background time.
    struct App {
        let lifecycle = AppLifecycle(backgroundWindow: HeadlessBackgroundWindow())
        var application: HeadlessApplication { HeadlessApplication(manager: Manager(service: nil), lifecycle: lifecycle) }
        var backgroundWindow: HeadlessBackgroundWindow { lifecycle.backgroundWindow as! HeadlessBackgroundWindow }
        func launch() { application.launch() }
        func enterBackground() { application.enterBackground() }
        func enterForeground() { application.enterForeground() }
        func terminate() { application.terminate() }
    }

    func service(_ providers: [any AnalyticsProvider], app: App, tracks: Bool = false) -> AnalyticsService {
        AnalyticsService(providers: providers, configuration: .init(
            context: AnalyticsContext(app: .init(name: "Tests", version: "2.0", build: "9")),
            identityStore: MemoryIdentityStore(), lifecycle: app.lifecycle, tracksLifecycleEvents: tracks))
    }

    @Test func backgroundFlushesInAWindowThenSuspendsAndForegroundResumes() async {
        let app = App()
        let recorder = RecordingProvider()
        let analytics = service([recorder], app: app)
        analytics.report(.categorySelected)
        app.enterBackground()
        #expect(app.backgroundWindow.startedCount == 1)
        await app.backgroundWindow.waitUntilIdle()
        #expect(recorder.events == [.categorySelected], "delivered before the window ended")
        #expect(recorder.flushCount == 1 && recorder.suspendCount == 1 && recorder.resumeCount == 0)

        app.enterForeground()
        await analytics.flush()
        #expect(recorder.resumeCount == 1)
        app.enterForeground()  // not suspended: nothing to resume
        await analytics.flush()
        #expect(recorder.resumeCount == 1)
        await analytics.shutdown()
    }

    @Test func comingBackBeforeTheFlushEndsDoesNotSuspend() async {
        let app = App()
        let gate = GateProvider()
        let analytics = service([gate], app: app)
        analytics.report(.categorySelected)
        gate.waitUntilBlocked()
        app.enterBackground()
        app.enterForeground()
        gate.open()
        await app.backgroundWindow.waitUntilIdle()
        await analytics.flush()
        #expect(gate.suspended == 0)
        await analytics.shutdown()
    }

    @Test func anExpiredWindowStillSuspendsOnce() async {
        let app = App()
        let gate = GateProvider()
        let analytics = service([gate], app: app)
        analytics.report(.categorySelected)
        gate.waitUntilBlocked()
        app.enterBackground()
        app.backgroundWindow.expire()
        #expect(app.backgroundWindow.expiredCount == 1 && app.backgroundWindow.runningCount == 0)
        gate.open()
        await app.backgroundWindow.waitUntilIdle()
        // The expiration handler suspends from a task of its own; wait for it (bounded).
        for _ in 0..<500 where gate.suspended == 0 { try? await Task.sleep(for: .milliseconds(10)) }
        await analytics.flush()
        #expect(gate.suspended == 1, "suspended once, by the expiry or after the flush, not twice")
        await analytics.shutdown()
    }

    /// The platform ends the background task as soon as the expiration handler returns
    /// and may suspend the app at once: the providers must have let go of their files
    /// by then, not in a task that runs later.
    @Test func theExpirationHandlerReturnsOnceTheProvidersSuspended() async {
        let app = App()
        let recorder = RecordingProvider()
        let analytics = service([recorder], app: app)
        app.enterBackground()
        app.backgroundWindow.expire()
        #expect(recorder.suspendCount == 1)
        await app.backgroundWindow.waitUntilIdle()
        await analytics.flush()
        #expect(recorder.suspendCount == 1, "once: by the expiry or after the flush, not twice")
        await analytics.shutdown()
    }

    @Test func lifecycleEventsCarrySegmentsNames() async {
        let app = App()
        let recorder = RecordingProvider()
        let analytics = service([recorder], app: app, tracks: true)
        app.launch()
        app.enterBackground()
        await app.backgroundWindow.waitUntilIdle()
        app.enterForeground()
        await analytics.shutdown()
        #expect(recorder.events == [
            AnalyticsEvent(name: "Application Installed", parameters: ["version": "2.0", "build": "9"]),
            AnalyticsEvent(name: "Application Opened", parameters: ["version": "2.0", "build": "9", "from_background": false]),
            AnalyticsEvent(name: "Application Backgrounded"),
            AnalyticsEvent(name: "Application Opened", parameters: ["version": "2.0", "build": "9", "from_background": true]),
        ])
    }

    @Test func terminationFlushesBeforeReturning() async {
        let app = App()
        let recorder = RecordingProvider()
        // A long wait, so that a loaded machine cannot make the flush outlast it.
        let analytics = AnalyticsService(providers: [recorder], configuration: .init(
            identityStore: MemoryIdentityStore(), lifecycle: app.lifecycle, terminationFlushTimeout: .seconds(120)))
        analytics.report(.categorySelected)
        await Task.detached { app.terminate() }.value
        #expect(recorder.events == [.categorySelected] && recorder.flushCount == 1)
        await analytics.shutdown()
    }

    @Test func aShutDownServiceStopsListening() async {
        let app = App()
        let recorder = RecordingProvider()
        let analytics = service([recorder], app: app)
        await analytics.shutdown()
        app.enterBackground()
        #expect(app.backgroundWindow.startedCount == 0)
    }
}
