@_spi(Generated) import Anna
import AnnaTesting
import Foundation
import Testing

/// What a provider's lane does to events before the provider receives them: names,
/// profile limits (item 6 of issue 10: Firebase takes no arrays), and that the
/// lane's cached decisions give the same results as deciding every event anew.
@Suite struct ProviderPreparationTests {
    private func firebase() -> RecordingProvider {
        RecordingProvider(name: "firebase", options: ProviderOptions(mapper: SnakeCaseEventMapper(), profile: .firebase))
    }

    @Test func firebaseProfileSendsAnArrayAsOneJoinedStringOrDropsIt() async {
        let errors = ErrorLog()
        let firebase = firebase()
        let amplitude = RecordingProvider(name: "amplitude", options: ProviderOptions(profile: .amplitude))
        let analytics = AnalyticsService(providers: [firebase, amplitude], configuration: .test(errorHandler: errors.handler))
        let long = AnalyticsValue.array((0..<30).map { .string("sku-\($0)") })
        analytics.report(AnalyticsEvent(name: "wishlistUpdated", parameters: ["productIDs": ["a", "b", 3], "count": 3]))
        analytics.report(AnalyticsEvent(name: "wishlistUpdated", parameters: ["productIDs": long, "count": 30]))
        await analytics.flush()

        #expect(firebase.events.map(\.parameters) == [
            ["product_ids": "a,b,3", "count": 3],
            ["count": 30],
        ])
        #expect(amplitude.events.map(\.parameters) == [
            ["productIDs": ["a", "b", 3], "count": 3],
            ["productIDs": long, "count": 30],
        ])
        #expect(errors.errors.map(\.description) == [
            "provider 'firebase': firebase: event 'wishlist_updated' parameter 'product_ids': "
                + "string and number values; arrays are sent joined with ',' (flattenedArray)",
            "provider 'firebase': firebase: event 'wishlist_updated' parameter 'product_ids': "
                + "string and number values; the array joined is longer than 100 characters (droppedParameter)",
        ])
        #expect(analytics.metrics.delivered["firebase"] == 2)
        #expect(analytics.metrics.limited["firebase"] == 2, "both events were changed for firebase")
    }

    @Test func enforceFlattensOnlyForProfilesWithoutArrays() {
        var event = AnalyticsEvent(name: "tags_set", parameters: ["tags": ["x", "y"]])
        var violations: [ProfileViolation] = []
        #expect(ProviderProfile.mixpanel.enforce(&event, violations: &violations))
        #expect(event.parameters == ["tags": ["x", "y"]] && violations.isEmpty)
        #expect(ProviderProfile.firebase.enforce(&event, violations: &violations))
        #expect(event.parameters == ["tags": "x,y"])
        #expect(violations.map(\.action) == [.flattenedArray])
        #expect(!ProviderProfile.firebase.acceptsArrayValues && ProviderProfile.segment.acceptsArrayValues)
    }

    /// The lane decides names once per declared name and reuses the mapped parameters
    /// of an event reported again with equal parameters; every event must still get
    /// the profile's full checks and its own violations.
    @Test func repeatedEventsAreCheckedEveryTime() async {
        let errors = ErrorLog()
        let firebase = firebase()
        let analytics = AnalyticsService(providers: [firebase], configuration: .test(errorHandler: errors.handler))
        let fine: [String: AnalyticsValue] = ["noteTitle": "Groceries", "itemCount": 2]
        let long: [String: AnalyticsValue] = ["noteTitle": .string(String(repeating: "n", count: 120)), "itemCount": 2]
        for parameters in [fine, fine, long, fine, long, ["noteTitle": "Groceries", "itemCount": 3], fine] {
            analytics.report(AnalyticsEvent(name: "noteSaved", parameters: parameters))
        }
        for _ in 0..<2 { analytics.report(AnalyticsEvent(name: "appUpdate", parameters: fine)) }
        for _ in 0..<2 { analytics.report(AnalyticsEvent(name: "noteSaved", parameters: ["ga_id": 1, "noteTitle": "x"])) }
        await analytics.flush()

        let short: [String: AnalyticsValue] = ["note_title": .string(String(repeating: "n", count: 100)), "item_count": 2]
        let mapped: [String: AnalyticsValue] = ["note_title": "Groceries", "item_count": 2]
        #expect(firebase.events.map(\.name) == Array(repeating: "note_saved", count: 9))
        #expect(firebase.events.map(\.parameters) == [
            mapped, mapped, short, mapped, short, ["note_title": "Groceries", "item_count": 3], mapped,
            ["note_title": "x"], ["note_title": "x"],
        ])
        let lines = errors.errors.map(\.description)
        #expect(lines.filter { $0.hasSuffix("(truncatedValue)") }.count == 2)
        #expect(lines.filter { $0.hasSuffix("'app_update' is reserved (droppedEvent)") }.count == 2)
        #expect(lines.filter { $0.contains("parameter 'ga_id': the prefix 'ga_' is reserved") }.count == 2)
        #expect(analytics.metrics.limited["firebase"] == 6, "2 truncated, 2 dropped, 2 with a parameter dropped")
    }

    /// Equal is not identical: `==` takes `-0.0` for `0.0` and a decomposed `é` for a
    /// precomposed one. Each event keeps its own values.
    @Test func equalParametersOfAnotherEventAreNotReused() async {
        let firebase = firebase()
        let analytics = AnalyticsService(providers: [firebase], configuration: .test())
        analytics.report(AnalyticsEvent(name: "priceSet", parameters: ["price": .double(0.0), "label": "\u{E9}"]))
        analytics.report(AnalyticsEvent(name: "priceSet", parameters: ["price": .double(-0.0), "label": "e\u{301}"]))
        await analytics.flush()
        let received = firebase.events.map(\.parameters)
        guard received.count == 2, case .double(let price)? = received[1]["price"], case .string(let label)? = received[1]["label"] else {
            Issue.record("expected two events, got \(received)")
            return
        }
        #expect(price.sign == .minus)
        #expect(Array(label.unicodeScalars) == ["e", "\u{301}"])
    }

    @Test func aProfileWithoutAMapperChecksTheDeclaredNames() async {
        let errors = ErrorLog()
        let mixpanel = RecordingProvider(name: "mixpanel", options: ProviderOptions(profile: .mixpanel))
        let analytics = AnalyticsService(providers: [mixpanel], configuration: .test(errorHandler: errors.handler))
        for _ in 0..<2 { analytics.report(AnalyticsEvent(name: "noteSaved", parameters: ["$city": "x", "title": "y"])) }
        await analytics.flush()
        #expect(mixpanel.events.map(\.parameters) == [["title": "y"], ["title": "y"]])
        #expect(errors.errors.count == 2)
    }
}

@Suite struct AnalyticsContextTests {
    private let context = AnalyticsContext(
        app: .init(name: "Notes", version: "2.1", build: "40", namespace: "com.example.notes"),
        device: .init(model: "iPhone16,1", manufacturer: "Apple"),
        os: .init(name: "iOS", version: "18.1.0"),
        locale: "en_US",
        timezone: "Europe/Berlin"
    )

    @Test func copiesAreIndependentValues() {
        var copy = context
        #expect(copy == context)
        copy.app.name = "Other"
        copy.locale = "de_DE"
        #expect(context.app.name == "Notes" && context.locale == "en_US")
        #expect(copy.app.name == "Other" && copy.locale == "de_DE" && copy.app.version == "2.1")
        #expect(copy != context)
        copy.app.name = "Notes"
        copy.locale = "en_US"
        #expect(copy == context && copy.hashValue == context.hashValue)
        #expect(Set([copy, context]).count == 1)
    }

    @Test func encodesAsAPlainStructOfItsFields() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(context), as: UTF8.self)
        #expect(json == #"{"app":{"build":"40","name":"Notes","namespace":"com.example.notes","version":"2.1"},"#
            + #""device":{"manufacturer":"Apple","model":"iPhone16,1"},"library":{"name":"anna-swift","version":"\#(AnalyticsContext.annaVersion)"},"#
            + #""locale":"en_US","os":{"name":"iOS","version":"18.1.0"},"timezone":"Europe\/Berlin"}"#)
        #expect(try JSONDecoder().decode(AnalyticsContext.self, from: Data(json.utf8)) == context)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(AnalyticsContext.self, from: Data(#"{"app":{}}"#.utf8)) }
    }
}
