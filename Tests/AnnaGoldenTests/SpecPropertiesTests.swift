@_spi(Generated) import Anna
import Foundation
import Testing

/// Exercises the screens, traits and global properties generated from account.anna.yml
/// and identity.anna.yml (golden files in Generated/, compiled by this target).
@Suite struct SpecPropertiesTests {
    @Test func screenWithoutPropertiesIsAStaticProperty() {
        let screen = AnalyticsScreen.home
        #expect(screen.name == "home")
        #expect(screen.properties.isEmpty)
        #expect(screen.metadata == AnalyticsEvent.Metadata())
    }

    @Test func screenFactoryUsesItsWireNameAndCarriesTypedProperties() {
        let screen = AnalyticsScreen.productDetail(productID: "p1", tab: .reviews)
        #expect(screen.name == "Product Detail")
        #expect(screen.properties == ["productID": .string("p1"), "tab": .string("reviews")])
        #expect(screen.metadata.constraints["productID"] == ParameterConstraint(maxLength: 64))
        #expect(screen.metadata.constraints["tab"]?.allowedValues == ["overview", "reviews"])
        #expect(screen.metadata.piiKeys.isEmpty)
        let positioned = AnalyticsScreen.productDetail(productID: "p2", tab: .overview, position: 3)
        #expect(positioned.properties["position"] == .int(3))
        #expect(positioned.properties.count == 3)
    }

    @Test func screenMetadataCarriesConsentAndPII() {
        let screen = AnalyticsScreen.checkout(email: "a@b.c")
        #expect(screen.metadata.consent == "marketing")
        #expect(screen.metadata.piiKeys == ["email"])
        #expect(screen.metadata.isDeprecated == false)
    }

    @Test func userTraitsAreTypedAndPIIByDefault() {
        let traits: [UserTrait] = [.email("a@b.c"), .loyaltyTier(.gold)]
        #expect(traits.map(\.name) == ["email", "loyalty tier"])
        #expect(traits.map(\.value) == [.string("a@b.c"), .string("gold")])
        #expect(traits.allSatisfy { $0.metadata.isPII })
        #expect(traits[0].metadata.constraint == ParameterConstraint(maxLength: 254, pattern: "^[^@]+@[^@]+$"))
        #expect(traits[1].metadata.constraint?.allowedValues == ["bronze", "silver", "gold"])
        let age = UserTrait.age(30)
        #expect(age.value == .int(30))
        #expect(age.metadata == PropertyMetadata(isPII: false, constraint: ParameterConstraint(min: 0)))
        let signedUp = UserTrait.signedUpAt(Date(timeIntervalSince1970: 1_700_000_000))
        #expect(signedUp.name == "signed up at")
        #expect(signedUp.value == .date(Date(timeIntervalSince1970: 1_700_000_000)))
        #expect(UserTrait.interests(["a", "b"]).value == .array([.string("a"), .string("b")]))
        #expect(UserTrait.displayName("Ann").metadata.isPII)
        #expect(UserTrait.locale("de_DE").metadata.isPII == false)
    }

    @Test func inlineEnumsAreNestedSoTheyDoNotClash() {
        // One trait name, three types: the event's enum is top-level, the traits' are nested.
        #expect(PlanChangedTier.allCases.map(\.rawValue) == ["basic", "premium"])
        #expect(UserTrait.Tier.allCases.map(\.rawValue) == ["basic", "premium"])
        #expect(GroupTrait.Tier.allCases.map(\.rawValue) == ["basic", "premium", "enterprise"])
        #expect(UserTrait.tier(.premium).value == .string("premium"))
        #expect(GroupTrait.tier(.enterprise).value == .string("enterprise"))
        #expect(AnalyticsScreen.ProductDetailTab.allCases == [.overview, .reviews])
        #expect(AnalyticsGlobal.Theme.dark.rawValue == "dark")
    }

    @Test func groupTraitsAreTypedAndPIIByDefault() throws {
        let traits: [GroupTrait] = [.name("Acme"), .employees(12), .website(try #require(URL(string: "https://acme.example")))]
        #expect(traits.map(\.name) == ["name", "employees", "website"])
        #expect(traits[0].value == .string("Acme"))
        #expect(traits[0].metadata == PropertyMetadata(isPII: true, constraint: ParameterConstraint(maxLength: 200)))
        #expect(traits[1].metadata.isPII == false)
        #expect(traits[2].value == .url(try #require(URL(string: "https://acme.example"))))
    }

    @Test func globalsCarryPersistenceAndTheirKeys() {
        let theme = AnalyticsGlobal.theme(.dark)
        #expect(theme.name == "theme")
        #expect(theme.value == .string("dark"))
        #expect(theme.isPersisted)
        #expect(theme.metadata.isPII == false)
        #expect(theme.key == AnalyticsGlobal.Key.theme)
        let plan = AnalyticsGlobal.plan(.teamPlan)
        #expect(plan.value == .string("team plan"))
        #expect(plan.isPersisted == false)
        #expect(plan.metadata == PropertyMetadata(isPII: false))
        let count = AnalyticsGlobal.sessionCount(4)
        #expect(count.name == "session count")
        #expect(count.isPersisted)
        #expect(count.key == .sessionCount)
        #expect(AnalyticsGlobal.Key.sessionCount.name == "session count")
        #expect(AnalyticsGlobal.experiment("b").metadata.constraint == ParameterConstraint(maxLength: 40))
        #expect(AnalyticsGlobal.appFlavor(.internal).value == .string("internal"))
        #expect(AnalyticsGlobal.appFlavor(.beta).isPersisted)
        #expect(AnalyticsGlobal.Key.buildNumber.name == "build number")
    }
}
