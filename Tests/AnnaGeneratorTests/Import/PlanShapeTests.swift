import Foundation
import Testing
@testable import _AnnaGeneratorCore
@testable import _AnnaGovernance

/// Both forms Segment exports a tracking plan in, and Typewriter 8's own `plan.json`,
/// give the same spec; each plan's output is kept as a golden file.
@Suite struct PlanShapeTests {
    @Test(arguments: ImportFixtures.plans)
    func importMatchesGoldenFiles(_ plan: String) throws {
        let result = try ImportFixtures.importPlan(plan)
        let base = String(plan.dropLast(".json".count))
        let spec = ImportFixtures.expected.appending(path: base + ".anna.yml")
        let diagnostics = ImportFixtures.expected.appending(path: base + ".diagnostics.txt")
        let diagnosticsText = ImportFixtures.lines(result).map { $0 + "\n" }.joined()
        if ProcessInfo.processInfo.environment["ANNA_RECORD_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(at: ImportFixtures.expected, withIntermediateDirectories: true)
            try AnnaGenerator.writeIfChanged(result.spec, to: spec.path)
            try AnnaGenerator.writeIfChanged(diagnosticsText, to: diagnostics.path)
            return
        }
        #expect(result.spec == (try String(contentsOf: spec, encoding: .utf8)), "\(spec.lastPathComponent) is out of date; run ANNA_RECORD_GOLDEN=1 swift test and review the diff")
        #expect(diagnosticsText == (try String(contentsOf: diagnostics, encoding: .utf8)), "\(diagnostics.lastPathComponent) is out of date")
    }

    @Test(arguments: ImportFixtures.plans)
    func importIsDeterministic(_ plan: String) throws {
        #expect(try ImportFixtures.importPlan(plan).spec == (try ImportFixtures.importPlan(plan).spec))
    }

    /// The Public API's rules and the Config API's events say the same plan.
    @Test func publicAndConfigAPIsGiveTheSameSpec() throws {
        let publicAPI = try ImportFixtures.importPlan("ecommerce-public-api.json").spec
        let configAPI = try ImportFixtures.importPlan("ecommerce-config-api.json").spec
        func body(_ spec: String) -> String {
            // The header names the file; the public plan also has a screen.
            let lines = spec.split(separator: "\n", omittingEmptySubsequences: false).drop { $0.hasPrefix("#") }
            return lines.split(separator: "").filter { !($0.first?.hasPrefix("screens:") ?? false) }
                .map { $0.joined(separator: "\n") }.joined(separator: "\n\n")
        }
        #expect(body(publicAPI) == body(configAPI))
        #expect(configAPI.contains("(Segment tracking plan \"Shop\")"))
        #expect(publicAPI.contains("""
            types:
              OrderCompletedProduct:
                properties:
                  product_id:
                    type: string
                    maxLength: 64
                  name: string?
                  price:
                    type: double?
                    min: 0
                  quantity:
                    type: int
                    min: 1
                  coupon: string?
            """))
        // Cart Viewed's products are the same object: one type serves both events.
        #expect(publicAPI.contains("  Cart Viewed:\n    parameters:\n      cart_id: string?\n      products: \"[OrderCompletedProduct]\"\n"))
    }

    @Test func latestVersionOfAnEventIsImported() throws {
        let result = try ImportFixtures.importPlan("ecommerce-public-api.json")
        #expect(result.spec.contains("      sku:\n        type: string?\n        pattern: ^[A-Z0-9-]+$\n"))
        #expect(ImportFixtures.lines(result).contains("61:16: note: version 1 of track 'Product Viewed' is not imported: a later version is"))
        #expect(!result.hasWarnings || ImportFixtures.lines(result).allSatisfy { !$0.contains("Product Viewed") || $0.contains("note:") })
    }

    @Test func identifyAndGroupTraits() throws {
        let spec = try ImportFixtures.importPlan("ecommerce-config-api.json").spec
        #expect(spec.contains("""
            traits:
              email:
                type: string
                maxLength: 254
              plan:
                type: string
                enum:
                  - free
                  - pro
              address: UserAddress

            groupTraits:
              name:
                type: string
                maxLength: 200
              employees:
                type: int
                min: 0
            """))
        #expect(spec.contains("  UserAddress:\n    properties:\n      street: string?\n"))
    }

    /// Typewriter 8 unwraps `properties.properties` into the schema itself and marks it
    /// with `eventMetadata`; formats Anna has become its types.
    @Test func typewriter8PlanWithFormatsAndExclusiveBounds() throws {
        let result = try ImportFixtures.importPlan("typewriter8-plan.json")
        #expect(result.spec.contains("""
              Signed In:
                description: The user signed in.
                parameters:
                  method:
                    type: string
                    description: How the user signed in.
                    enum:
                      - email
                      - apple
                      - google
                  attempt:
                    type: int
                    min: 1
                  remembered: bool?
                  signed_in_at: date?
                  referrer: url?
              App Opened:
                description: The user opened the app.
            """))
        #expect(result.spec.contains("      tags:\n        type: \"[string]?\"\n        maxLength: 20\n"))
        #expect(result.diagnostics.isEmpty)
    }

    /// Typewriter's local tracking plans (its `examples/local-tracking-plans/`) are the
    /// Config API's rules object itself; the traits may be `null`, `[]` or a schema.
    @Test func typewriterLocalPlanHasATypedProductType() throws {
        let result = try ImportFixtures.importPlan("typewriter-local-plan.json")
        #expect(result.diagnostics.isEmpty, "\(ImportFixtures.lines(result))")
        #expect(result.spec.contains("      products:\n        type: \"[OrderCompletedProduct]\"\n"))
        #expect(result.spec.contains("  OrderCompletedProduct:\n    properties:\n      product_id:\n        type: string\n        maxLength: 64\n"))
        #expect(result.spec.contains("  Feed Viewed:\n    parameters:\n      profile_id:\n"))

        let withTraits = try ImportFixtures.importText("""
            {"events": [], "group_traits": [],
             "identify_traits": {"type": "object", "properties": {"traits": {"type": "object",
                 "properties": {"email": {"type": "string", "maxLength": 254}}}}}}
            """)
        #expect(withTraits.spec.contains("traits:\n  email:\n    type: string\n    maxLength: 254\n"), "\(withTraits.spec)")
        #expect(withTraits.diagnostics.isEmpty)
    }

    @Test func notATrackingPlanIsAnError() throws {
        for (json, expected) in [
            ("[1, 2]", "1:1: error: a Segment tracking plan is a JSON object, not an array"),
            ("{\"events\": 3}", "1:1: error: no tracking plan rules found"),
            ("{\"data\": {\"rules\": 3}}", "1:20: error: no tracking plan rules found"),
        ] {
            do throws(SpecError) {
                _ = try ImportFixtures.importText(json)
                Issue.record("\(json) was imported")
            } catch {
                #expect(error.diagnostics.first?.descriptionWithoutFile.hasPrefix(expected) == true, "\(error)")
            }
        }
    }

    @Test func malformedPlanIsALocatedError() throws {
        let bytes = try Fixtures.bytes(ImportFixtures.directory.appending(path: "malformed.json"))
        do throws(SpecError) {
            _ = try PlanImporter().importPlan(bytes, file: "malformed.json")
            Issue.record("a malformed plan was imported")
        } catch {
            #expect(error.description == "malformed.json:4:3: error: expected ',' or '}' after a member of an object (the file is not valid JSON)")
        }
    }
}
