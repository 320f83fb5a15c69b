@_spi(Generated) import Anna
import Foundation
import Testing

/// Exercises the structs generated from objects.anna.yml's object types, compiled
/// as they are in Generated/objects.anna.swift.
@Suite struct ObjectTypeTests {
    static let address = PostalAddress(street: "1 Main St", city: "Springfield")
    static let book = CartLine(
        productId: "SKU-1", name: "Book", price: 12.5, quantity: 2, category: .books,
        brand: Maker(name: "Acme", origin: address)
    )
    static let record = CartLine(productId: "SKU-2", name: "Record", price: 20, quantity: 1, category: .inStore, coupon: "SAVE", tags: ["vinyl"])

    @Test func optionalPropertiesDefaultToNilAndAreLeftOut() {
        let plain = CartLine(productId: "p", name: "n", price: 1, quantity: 1, category: .music)
        #expect(plain.coupon == nil && plain.tags == nil && plain.brand == nil)
        #expect(plain.analyticsValue == .object([
            "product id": .string("p"), "name": .string("n"), "price": .double(1), "quantity": .int(1), "category": .string("music"),
        ]))
    }

    @Test func factoriesTakeObjectsAndListsOfObjects() throws {
        let id = try #require(UUID(uuidString: "8D5A6B0E-4C1F-4B7A-9E1D-2F3C4B5A6D7E"))
        let event = AnalyticsEvent.purchaseMade(orderId: id, products: [Self.book, Self.record], revenue: 45, shipping: Self.address)
        #expect(event.name == "Purchase Made")
        guard case .array(let products) = event.parameters["products"], products.count == 2,
              case .object(let first) = products[0], case .object(let brand) = first["brand"],
              case .object(let origin) = brand["origin"] else {
            Issue.record("products is not a list of nested objects: \(String(describing: event.parameters["products"]))")
            return
        }
        #expect(first["product id"] == .string("SKU-1"))
        #expect(origin["street"] == .string("1 Main St"))
        #expect(products[1] == Self.record.analyticsValue)
        #expect(event.parameters["shipping"] == .object(["street": .string("1 Main St"), "city": .string("Springfield")]))
        #expect(event.parameters["gift wrap"] == nil)
    }

    @Test func metadataNamesPIIAndConstraintsInsideObjectsByPath() {
        let event = AnalyticsEvent.purchaseMade(orderId: UUID(), products: [], revenue: 0)
        #expect(event.metadata.piiKeys == ["products/brand/origin/street", "shipping/street", "gift wrap/brand/origin/street"])
        #expect(event.metadata.constraints["products/price"] == ParameterConstraint(min: 0))
        #expect(event.metadata.constraints["products/brand/name"] == ParameterConstraint(maxLength: 40))
        #expect(event.metadata.constraints["products/category"]?.allowedValues == ["books", "music", "in store"])
        #expect(AnalyticsScreen.basket(lines: [Self.book]).metadata.piiKeys == ["lines/brand/origin/street"])
    }

    @Test func structsConvertBackFromTheirAnalyticsValue() {
        #expect(CartLine(analyticsValue: Self.book.analyticsValue) == Self.book)
        #expect(CartLine(analyticsValue: Self.record.analyticsValue) == Self.record)
        #expect([CartLine](analyticsValue: [Self.book, Self.record].analyticsValue) == [Self.book, Self.record])
        // A required property missing, an optional one of another type, not an object at all.
        guard case .object(var fields) = Self.record.analyticsValue else { return }
        fields["coupon"] = .int(3)
        #expect(CartLine(analyticsValue: .object(fields)) == nil)
        fields["coupon"] = nil
        fields["name"] = nil
        #expect(CartLine(analyticsValue: .object(fields)) == nil)
        #expect(CartLine(analyticsValue: .string("SKU-1")) == nil)
    }

    @Test func structsAreCodableWithTheSpecsNames() throws {
        let data = try JSONEncoder().encode(Self.book)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(json["product id"] as? String == "SKU-1")
        #expect(try JSONDecoder().decode(CartLine.self, from: data) == Self.book)
    }

    @Test func objectValuesRoundTripThroughCodableWithoutLosingTheirCase() throws {
        let event = AnalyticsEvent.purchaseMade(orderId: UUID(), products: [Self.book, Self.record], revenue: 45, shipping: Self.address)
        let decoded = try JSONDecoder().decode(AnalyticsEvent.self, from: JSONEncoder().encode(event))
        #expect(decoded == event)
        let value = AnalyticsValue.object(["a": .array([.object(["b": .int(1)])]), "c": .object([:])])
        #expect(try JSONDecoder().decode(AnalyticsValue.self, from: JSONEncoder().encode(value)) == value)
    }

    @Test func screensTraitsAndGlobalsTakeObjects() {
        let screen = AnalyticsScreen.basket(lines: [Self.record])
        #expect(screen.properties["lines"] == .array([Self.record.analyticsValue]))
        let trait = UserTrait.home(Self.address)
        #expect(trait.value == Self.address.analyticsValue)
        #expect(trait.metadata.isPII)
        let global = AnalyticsGlobal.lastProduct(Self.book)
        #expect(global.value == Self.book.analyticsValue)
        #expect(global.key == .lastProduct)
    }

    @Test func constraintsInsideObjectTypedGlobalsAndTraitsAreChecked() async {
        let errors = LockedErrors()
        let recorder = EcommerceSpecTests.Recorder(options: ProviderOptions(receivesPII: true))
        let analytics = AnalyticsService(providers: [recorder], configuration: .init(violationPolicy: .drop, errorHandler: errors.record))
        let tooLong = CartLine(productId: String(repeating: "x", count: 65), name: "n", price: 1, quantity: 1, category: .books)
        analytics.setGlobal(.lastProduct(tooLong))
        analytics.identify(traits: [.favoriteProduct(tooLong)])
        analytics.report(.purchaseMade(orderId: UUID(), products: [], revenue: 0))
        await analytics.flush()
        #expect(recorder.events.map(\.name) == ["Purchase Made"], "the identify call is dropped")
        #expect(recorder.events.first?.parameters["last product"] == nil, "with .drop, a global breaking a nested constraint is not set")
        #expect(errors.all == [
            "event 'global property' parameter 'last product/product id': must be at most 64 characters long (policy: drop)",
            "event '' parameter 'favorite product/product id': must be at most 64 characters long (policy: drop)",
        ])
        #expect(UserTrait.favoriteProduct(tooLong).metadata.nestedConstraints["brand/name"] == ParameterConstraint(maxLength: 40))
    }

    @Test func theCatalogDescribesObjectParameters() throws {
        let event = try #require(EventCatalog.objects.events.first { $0.name == "Purchase Made" })
        let products = try #require(event.parameter(named: "products"))
        #expect(products.kind == .object && products.isArray)
        #expect(products.typeDescription == "[CartLine]")
        #expect(products.accepts([Self.book].analyticsValue))
        #expect(!products.accepts(.array([.string("SKU-1")])))
    }
}
