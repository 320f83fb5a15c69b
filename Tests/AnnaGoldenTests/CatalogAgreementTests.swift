@_spi(Generated) import Anna
import Foundation
import Testing

/// The generated catalogs build their events from descriptors, one statement of
/// strings per event (issue 51), instead of a `switch` over the typed factories: an
/// event built by name must still be the one its typed factory builds, with the same
/// parameters, conversions, metadata and errors.
@Suite struct CatalogAgreementTests {
    /// Builds `event` again by its name from its own parameters.
    static func rebuilt(_ event: AnalyticsEvent, in catalog: EventCatalog) throws -> AnalyticsEvent {
        try catalog.event(named: event.name, values: event.parameters)
    }

    @Test func everyEventIsTheOneItsTypedFactoryBuilds() throws {
        let address = PostalAddress(street: "1 Main St", city: "Springfield", default: true, updated: Date(timeIntervalSince1970: 1_700_000_000))
        let book = CartLine(productId: "SKU-1", name: "Book", price: 12.5, quantity: 2, category: .books, brand: Maker(name: "Acme", origin: address))
        let record = CartLine(productId: "SKU-2", name: "Record", price: 20, quantity: 1, category: .inStore, coupon: "SAVE", tags: ["vinyl"])
        let events: [(AnalyticsEvent, EventCatalog)] = [
            (.categorySelected, .catalog),
            (.categoryAdded(categoryTitle: "Books", itemCount: 3, source: .import, tags: ["a", "b"]), .catalog),
            (.categoryAdded(categoryTitle: "Books", itemCount: 3, source: .manual, tags: [], price: 2.5), .catalog),
            (.categoryShared(channel: .copyLink, recipients: 4), .catalog),
            (.purchaseMade(orderId: UUID(), products: [book, record], revenue: 32.5), .objects),
            (.purchaseMade(orderId: UUID(), products: [book], revenue: 12.5, shipping: address, giftWrap: [record]), .objects),
            (.planChanged(tier: .premium, plan: .teamPlan), .account),
        ]
        for (event, catalog) in events {
            let rebuilt = try Self.rebuilt(event, in: catalog)
            #expect(rebuilt == event)
            #expect(rebuilt.metadata == event.metadata, "\(event.name)")
        }
    }

    /// Screens, traits and globals (issue 55, for web content): built by their
    /// descriptors, they are what the typed factories make.
    @Test func screensTraitsAndGlobalsAreTheOnesTheirFactoriesMake() throws {
        let calls = EventCatalog.account.calls
        let detail = try #require(calls.screens.first { $0.name == "Product Detail" })
        let screen = try EventCatalog.account.built(detail, values: ["productID": "p-1", "tab": "reviews", "position": 2])
        let expected = AnalyticsScreen.productDetail(productID: "p-1", tab: .reviews, position: 2)
        #expect(screen.parameters == expected.properties && screen.metadata == expected.metadata)
        #expect(calls.screens.map(\.name) == ["home", "Product Detail", "checkout"])  // the deprecated one left out
        let traits = try EventCatalog.account.built(try #require(calls.traits), values: ["loyalty tier": "gold", "age": 30])
        #expect(traits.parameters == ["loyalty tier": UserTrait.loyaltyTier(.gold).value, "age": UserTrait.age(30).value])
        #expect(traits.metadata.piiKeys.contains("loyalty tier") && !traits.metadata.piiKeys.contains("age"))
        #expect(traits.metadata.constraints["age"] == UserTrait.age(30).metadata.constraint)
        let globals = try #require(calls.globals)
        #expect(throws: EventCatalogError.self) { try EventCatalog.account.built(globals, values: ["theme": "sepia"]) }
        #expect(EventCatalog.objects.calls.objectProperties.filter { $0 == "name" }.count == 1)
    }

    @Test func valuesAreConvertedAsTheFactoryConvertsThem() throws {
        // An int for a double becomes a double; an object keeps its declared properties.
        let built = try EventCatalog.catalog.event(named: "categoryAdded", values: [
            "categoryTitle": .string("Books"), "itemCount": .int(3), "source": .string("sync"), "tags": .array([]), "price": .int(2),
        ])
        #expect(built == .categoryAdded(categoryTitle: "Books", itemCount: 3, source: .sync, tags: [], price: 2))
        #expect(built.parameters["price"] == .double(2))
        let line: AnalyticsValue = .object([
            "product id": .string("p"), "name": .string("n"), "price": .int(1), "quantity": .int(1), "category": .string("music"),
            "not declared": .string("dropped"),
        ])
        let order = UUID()
        let purchase = try EventCatalog.objects.event(named: "Purchase Made", values: [
            "order id": .string(order.uuidString), "products": .array([line]), "revenue": .double(1),
        ])
        #expect(purchase == .purchaseMade(orderId: order, products: [CartLine(productId: "p", name: "n", price: 1, quantity: 1, category: .music)], revenue: 1))
    }

    @Test func theFirstProblemIsTheOneTheFactoryWouldMeet() {
        // Required parameters first, in spec order, then optional ones.
        #expect(throws: EventCatalogError(event: "categoryAdded", parameter: "itemCount", message: "event 'categoryAdded' needs a value for its required parameter 'itemCount'")) {
            try EventCatalog.catalog.event(named: "categoryAdded", values: [
                "categoryTitle": .string("Books"), "source": .string("nope"), "price": .string("free"),
            ])
        }
        #expect(throws: EventCatalogError(event: "categoryAdded", parameter: "source", message: "parameter 'source' of event 'categoryAdded' takes CategorySource, not a string")) {
            try EventCatalog.catalog.event(named: "categoryAdded", values: [
                "categoryTitle": .string("Books"), "itemCount": .int(1), "source": .string("nope"), "tags": .array([]), "price": .string("free"),
            ])
        }
        #expect(throws: EventCatalogError(event: "categoryAdded", parameter: "price", message: "parameter 'price' of event 'categoryAdded' takes double?, not a string")) {
            try EventCatalog.catalog.event(named: "categoryAdded", values: [
                "categoryTitle": .string("Books"), "itemCount": .int(1), "source": .string("sync"), "tags": .array([]), "price": .string("free"),
            ])
        }
    }

    @Test func theDescriptorsAreTheOnesTheGenericCallsMade() throws {
        let expected = [
            ParameterDescriptor(name: "categoryTitle", type: String.self, kind: .string),
            ParameterDescriptor(name: "itemCount", type: Int.self, kind: .int),
            ParameterDescriptor(name: "source", type: CategorySource.self, kind: .enumeration, enumValues: ["manual", "import", "sync"]),
            ParameterDescriptor(name: "price", type: Double.self, kind: .double, isOptional: true),
            ParameterDescriptor(name: "tags", type: [String].self, kind: .string, isArray: true),
        ]
        let event = try #require(EventCatalog.catalog.descriptor(named: "categoryAdded"))
        #expect(event.parameters.count == expected.count)
        for (built, generic) in zip(event.parameters, expected) {
            #expect(built.name == generic.name)
            #expect(built.kind == generic.kind)
            #expect(built.isArray == generic.isArray && built.isOptional == generic.isOptional)
            #expect(built.enumValues == generic.enumValues)
            #expect(built.typeName == generic.typeName)
            #expect(built.typeDescription == generic.typeDescription)
        }
        let products = try #require(EventCatalog.objects.descriptor(named: "Purchase Made")?.parameter(named: "gift wrap"))
        #expect(products.typeName == ParameterDescriptor(name: "gift wrap", type: [CartLine].self, kind: .object).typeName)
        #expect(products.typeDescription == "[CartLine]?")
    }

    @Test func aTypeTheGeneratedCodeDidNotAddAcceptsNothing() {
        let event = CatalogTypes().event("e", parameters: ["x", "Missing", "y", "[Missing]?"])
        #expect(event.parameters.map(\.typeDescription) == ["Missing", "[Missing]?"])
        #expect(!event.parameters[0].accepts(.string("a")))
        #expect(event.parameters[1].isOptional && event.parameters[1].isArray)
    }

    /// Code generated before issue 51 passes a `make` closure; it keeps working.
    @Test func aCatalogWithAFactoryStillBuildsThroughIt() throws {
        let catalog = EventCatalog(
            name: "old", fingerprint: "0000000000000000",
            events: [EventDescriptor(name: "counted", parameters: [ParameterDescriptor(name: "n", type: Int.self, kind: .int)])],
            make: { name, arguments throws(EventCatalogError) in
                name == "counted" ? AnalyticsEvent(name: "counted", parameters: ["n": .int(try arguments.required("n", as: Int.self) * 2)]) : nil
            })
        #expect(try catalog.event(named: "counted", values: ["n": .int(2)]).parameters["n"] == .int(4))
    }
}
