import Foundation
import Testing

@testable import Anna
@testable import AnnaDestinations

/// Issue 54: an event generated from a versioned plan names the plan and its versions
/// on every provider's wire, under the documented key; an event without one names none.
@Suite struct PlanVersionWireTests {
    let plan = AnalyticsEvent.PlanReference(name: "Music", version: "2.3.0", eventVersion: "1.1.0")

    func envelope(plan: AnalyticsEvent.PlanReference?, branch: String?) -> AnalyticsEnvelope {
        var context = AnalyticsContext(os: .init(name: "iOS", version: "18.1"))
        context.planBranch = branch
        return AnalyticsEnvelope(
            event: AnalyticsEvent(name: "songPlayed", parameters: ["title": "Blue"], metadata: .init(plan: plan)),
            messageID: UUID(), timestamp: Date(timeIntervalSince1970: 1_764_201_600), sessionID: 1,
            anonymousID: "anon", userID: nil, context: context)
    }

    func record(_ wire: some CollectorWire, _ envelope: AnalyticsEnvelope) throws -> [String: Any] {
        var encoder = wire.makeEncoder()
        var bytes: [UInt8] = []
        encoder.encode(envelope, into: &bytes)
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    let segment = SegmentWire(endpoint: URL(string: "https://api.segment.io/v1/batch")!, writeKey: "k")

    @Test func segmentCarriesContextPlanWithTheBranch() throws {
        let event = try record(segment, envelope(plan: plan, branch: "main"))
        let context = try #require(event["context"] as? [String: Any])
        let stamped = try #require(context["plan"] as? [String: String])
        #expect(stamped == ["name": "Music", "version": "2.3.0", "eventVersion": "1.1.0", "branch": "main"])
        #expect(context["sessionId"] as? Int == 1, "the session stays beside it")
        #expect((event["properties"] as? [String: Any])?["title"] as? String == "Blue")
    }

    @Test func anEventWithoutAPlanNamesNoneAndNoBranchIsSentWithoutOne() throws {
        let unversioned = try record(segment, envelope(plan: nil, branch: "main"))
        #expect((unversioned["context"] as? [String: Any])?["plan"] == nil)
        let noBranch = try record(segment, envelope(plan: plan, branch: nil))
        #expect(((noBranch["context"] as? [String: Any])?["plan"] as? [String: String])?["branch"] == nil)
    }

    @Test func amplitudeUsesItsOwnPlanFieldAndTheEventVersionAmongProperties() throws {
        let wire = AmplitudeWire(endpoint: URL(string: "https://api2.amplitude.com/2/httpapi")!, apiKey: "K", groupType: "org")
        let event = try record(wire, envelope(plan: plan, branch: "main"))
        #expect(event["plan"] as? [String: String] == ["branch": "main", "source": "Music", "version": "2.3.0"])
        #expect((event["event_properties"] as? [String: Any])?["anna_event_version"] as? String == "1.1.0")
        let unversioned = try record(wire, envelope(plan: nil, branch: "main"))
        #expect(unversioned["plan"] == nil && (unversioned["event_properties"] as? [String: Any])?["anna_event_version"] == nil)
    }

    @Test func mixpanelAndPostHogCarryAnnaPlanAmongTheProperties() throws {
        let mixpanel = MixpanelWire(endpoint: URL(string: "https://api.mixpanel.com/track")!, token: "T")
        let posthog = PostHogWire(endpoint: URL(string: "https://us.i.posthog.com/batch/")!, projectAPIKey: "phc_K", groupType: "company")
        for wire in [mixpanel as any CollectorWire, posthog] {
            let event = try record(wire, envelope(plan: plan, branch: "release"))
            let properties = try #require(event["properties"] as? [String: Any])
            #expect(
                properties["anna_plan"] as? [String: String]
                    == ["name": "Music", "version": "2.3.0", "eventVersion": "1.1.0", "branch": "release"], "\(wire)")
            let unversioned = try record(wire, envelope(plan: nil, branch: "release"))
            #expect((unversioned["properties"] as? [String: Any])?["anna_plan"] == nil)
        }
    }
}
