import Foundation
import Testing
@testable import _AnnaGeneratorCore

/// The sections issue 11 adds (screens, traits, groupTraits, globals): defaults,
/// naming rules and provider limits, beside the corpus that checks their messages.
@Suite struct SpecSectionsTests {
    static func check(_ yaml: String) -> (spec: TrackingSpec?, diagnostics: [Diagnostic]) {
        AnnaGenerator().check(Array(yaml.utf8), file: "spec.anna.yml")
    }

    @Test func traitsArePIIUnlessTheySayOtherwiseAndGlobalsAreNot() throws {
        let spec = try #require(Self.check("""
            anna: 1
            traits:
              email: string
              age: { type: int, pii: false }
            groupTraits:
              name: { type: string, maxLength: 10 }
            globals:
              plan: string
              user hash: { type: string, pii: true, persisted: true }
            """).spec)
        #expect(spec.events.isEmpty)
        #expect(spec.traits.map(\.isPII) == [true, false])
        #expect(spec.groupTraits.map(\.isPII) == [true])
        #expect(spec.globals.map(\.isPII) == [false, true])
        #expect(spec.globals.map(\.isPersisted) == [false, true])
        #expect(spec.traits.allSatisfy { !$0.isPersisted })
    }

    @Test func eventsAreOptionalOnlyBesideAnotherSection() {
        for section in ["screens:\n  home: {}", "traits:\n  email: string", "groupTraits:\n  name: string", "globals:\n  plan: string"] {
            let (spec, diagnostics) = Self.check("anna: 1\n\(section)\n")
            #expect(spec != nil, "\(section): \(diagnostics)")
        }
        let (spec, diagnostics) = Self.check("anna: 1\naccess: public\n")
        #expect(spec == nil)
        #expect(diagnostics.map(\.message) == [
            "the spec declares nothing; add the events it tracks (events: {} for none yet), or screens:, traits:, groupTraits: or globals:",
        ])
    }

    /// Every event carries the globals, so the limit is on their sum; a global that an
    /// event's own parameter replaces is counted once.
    @Test(arguments: [(23, 2, true), (24, 2, false), (24, 1, true), (25, 0, true), (26, 0, false)])
    func globalsCountAgainstTheParameterLimit(parameters: Int, globals: Int, fits: Bool) {
        let own = (0..<parameters).map { "      p\($0): int" }.joined(separator: "\n")
        // g0 repeats an event parameter's name, so it never adds to the count.
        let declared = (["p0: int"] + (0..<globals).map { "g\($0): int" }).map { "  \($0)" }.joined(separator: "\n")
        let yaml = "anna: 1\nproviders: [firebase]\nglobals:\n\(declared)\nevents:\n  opened:\n    parameters:\n\(own)\n"
        let (spec, diagnostics) = Self.check(yaml)
        #expect((spec != nil) == fits, "\(diagnostics)")
        if !fits {
            let message = try? #require(diagnostics.first?.message)
            #expect(message?.contains("over the limit of 25") == true)
            if globals > 0 { #expect(message?.contains("carries \(globals) global properties") == true) }
        }
    }

    @Test func screensAreCheckedLikeEventsByProviders() {
        let (_, diagnostics) = Self.check("""
            anna: 1
            providers: [firebase]
            globals:
              ga session: int
            screens:
              home:
                name: app_update
                parameters:
                  tags: "[int]"
            """)
        #expect(diagnostics.map(\.description) == [
            "spec.anna.yml:4:3: error: firebase: global property name 'ga session' (sent as 'ga_session') starts with 'ga_', which firebase reserves; rename it",
            "spec.anna.yml:6:3: error: firebase: the screen name 'app_update' is reserved for firebase's own events; rename 'app_update'",
            "spec.anna.yml:9:7: error: firebase: parameter 'tags' of screen 'app_update' is an array ([int]), but firebase takes only string and number values; declare one value (e.g. the item or a count) or a string with maxLength",
        ])
    }

    @Test func traitsAreCheckedByNameOnlyAndGlobalsLikeParameters() {
        let (_, diagnostics) = Self.check("""
            anna: 1
            providers: [firebase]
            traits:
              email: { type: string, maxLength: 254 }
              interests: "[string]"
              google id: string
            globals:
              note: { type: string, maxLength: 254 }
            """)
        #expect(diagnostics.map(\.description) == [
            "spec.anna.yml:6:3: error: firebase: trait name 'google id' (sent as 'google_id') starts with 'google_', which firebase reserves; rename it",
            "spec.anna.yml:8:3: error: firebase: maxLength 254 of global property 'note' is over firebase's limit of 100 characters for string values; lower it to 100 or less",
        ])
    }

    @Test func inlineEnumsAreNestedInTheTypeTheirFactoryReturns() throws {
        let url = Fixtures.directory.appending(path: "Adversarial/properties-nested-enums.anna.yml")
        let spec = try #require(try Fixtures.check(url).spec)
        #expect(spec.types.map(\.swiftName) == [
            "TierChangedLevel", "AnalyticsScreen.TierLevel", "UserTrait.Level", "GroupTrait.Level",
            "AnalyticsGlobal.Level", "AnalyticsGlobal.TierLevel",
        ])
        #expect(spec.types.map(\.container) == [nil, "AnalyticsScreen", "UserTrait", "GroupTrait", "AnalyticsGlobal", "AnalyticsGlobal"])
        #expect(spec.traits.first?.swiftType == "UserTrait.Level")
    }

    @Test func deprecatedScreensAreMarkedLikeEvents() throws {
        let url = Fixtures.directory.appending(path: "Valid/account.anna.yml")
        let source = try AnnaGenerator().generate(try Fixtures.bytes(url), file: "account.anna.yml").source
        #expect(source.contains("""
                @available(*, deprecated, message: "Use checkout instead.")
                public static var legacyCart: AnalyticsScreen {
                    AnalyticsScreen(name: "legacyCart", metadata: AnnaScreenMetadata.legacyCart)
                }
            """))
        #expect(source.contains("static let legacyCart = AnalyticsEvent.Metadata(isDeprecated: true)"))
    }
}
