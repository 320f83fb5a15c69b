import AnnaTesting
import Testing
@testable import App

@Test func export() async throws {
    let recorder = RecordingProvider()
    let analytics = AnalyticsService(providers: [recorder])
    analytics.report(.exported)
    analytics.report(.signedIn)
    try await recorder.expectEvents([.exported])
    #expect(recorder.events.count == 2)
    analytics.screen(.settings)
}
