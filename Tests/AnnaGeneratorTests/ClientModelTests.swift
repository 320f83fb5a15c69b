import AnnaRules
import Foundation
import Testing
@testable import _AnnaClientGenerator
@testable import _AnnaGeneratorCore

/// The language-neutral model the TypeScript and Kotlin clients are written from:
/// translated from the validated spec, names through the runtime's naming rule.
@Suite struct ClientModelTests {
    static let shop = Fixtures.packageRoot.appending(path: "Examples/Shop/Sources/ShopAnalytics/shop.anna.yml")

    func model(naming: WireNaming = .spec) throws -> ClientModel {
        let spec = try #require(try Fixtures.check(Self.shop).spec)
        return ClientTranslator(naming: naming).translate(spec)
    }

    @Test func carriesTypesConstraintsPIIConsentAndDeprecations() throws {
        let model = try model()
        #expect(model.clientName == "ShopAnalytics")
        #expect(model.specFileName == "shop.anna.yml")
        let category = try #require(model.enums.first { $0.identifier == "ProductCategory" })
        #expect(category.cases.map(\.wire) == ["books", "music", "home and garden", "toys"])
        #expect(category.cases.map(\.identifier) == ["books", "music", "homeAndGarden", "toys"])
        // The inline enum of a trait is flattened out of its Swift container.
        #expect(model.enums.contains { $0.identifier == "UserTraitLoyaltyTier" })

        let order = try #require(model.events.first { $0.wireName == "orderPlaced" })
        #expect(order.consent == "analytics")
        let items = try #require(order.properties.first { $0.wireName == "items" })
        #expect(items.isArray && !items.isOptional)
        guard case .object(let index) = items.type else { Issue.record("items is not an object list"); return }
        #expect(model.objects[index].identifier == "OrderItem")
        #expect(model.objects[index].properties.first { $0.wireName == "quantity" }?.constraints.max == 99)
        let gift = try #require(order.properties.first { $0.wireName == "giftMessage" })
        #expect(gift.isOptional && gift.isPII && gift.constraints.maxLength == 100)
        #expect(order.properties.first { $0.wireName == "placedAt" }?.type == .date)
        #expect(gift.location.line > order.location.line)

        #expect(model.events.first { $0.wireName == "legacyCheckout" }?.deprecation == "Use orderPlaced instead.")
        #expect(model.events.first { $0.wireName == "appOpened" }?.consent == "necessary")
        #expect(model.screens.map(\.wireName) == ["Product Detail", "Cart"])
        #expect(model.screens.map(\.identifier) == ["productDetail", "cart"])
        // Traits and globals are each optional in a call, whatever the spec says.
        #expect(model.traits.map(\.wireName) == ["email", "loyaltyTier"])
        #expect(model.traits.allSatisfy(\.isOptional) && model.globals.allSatisfy(\.isOptional))
        #expect(model.traits.first?.isPII == true)
    }

    @Test func snakeCaseNamingMapsEveryNameSentAsTheRuntimeMapperDoes() throws {
        let model = try model(naming: .snakeCase)
        let order = try #require(model.events.first { $0.identifier == "orderPlaced" })
        #expect(order.wireName == "order_placed")
        #expect(order.properties.map(\.wireName).contains("gift_message"))
        #expect(model.objects[0].properties.map(\.wireName) == ["item_id", "item_name", "item_category", "price", "quantity"])
        #expect(model.screens.map(\.wireName) == ["product_detail", "cart"])
        #expect(model.traits.map(\.wireName) == ["email", "loyalty_tier"])
        // Identifiers and enum values are not names sent: they stay.
        #expect(model.objects[0].properties.map(\.identifier).first == "itemID")
        #expect(model.enums[0].cases.map(\.wire).contains("home and garden"))
        #expect(model.events.allSatisfy { $0.wireName == SnakeCase.convert($0.wireName) })
    }
}
