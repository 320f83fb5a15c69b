import Foundation
import Testing
@testable import _AnnaGeneratorCore
@testable import _AnnaGovernance
import AnnaRules

/// JSON Schema to Anna types, one rule at a time.
@Suite struct SchemaImportTests {
    private func spec(_ properties: String, required: [String] = [], name: String = "Opened") throws -> PlanImporter.Result {
        try ImportFixtures.importText(ImportFixtures.event(properties, required: required, name: name))
    }

    @Test func scalarsRequiredAndNullable() throws {
        let result = try spec("""
            {"a": {"type": "string"}, "b": {"type": "integer"}, "c": {"type": ["number", "null"]},
             "d": {"type": "boolean"}, "e": {"type": ["integer", "number"]}, "f": {"anyOf": [{"type": "string"}, {"type": "null"}]}}
            """, required: ["a", "c", "f"])
        #expect(result.spec.contains("      a: string\n      b: int?\n      c: double?\n      d: bool?\n      e: double?\n      f: string?\n"))
        #expect(result.diagnostics.isEmpty)
    }

    /// Objects nest up to Anna's limit of three levels; deeper ones are left out with a
    /// warning at the object that does not fit.
    @Test func deeplyNestedObjectsBecomeNamedTypesUpToTheLimit() throws {
        var schema = "{\"type\": \"object\", \"properties\": {\"leaf\": {\"type\": \"string\"}}}"
        for level in (1...5).reversed() {
            schema = "{\"type\": \"object\", \"properties\": {\"l\(level)\": \(schema), \"n\(level)\": {\"type\": \"integer\"}}}"
        }
        let result = try spec("{\"root\": \(schema)}", required: ["root"])
        #expect(result.spec.contains("""
            types:
              OpenedRootL1L2:
                properties:
                  n3: int?
              OpenedRootL1:
                properties:
                  l2: OpenedRootL1L2?
                  n2: int?
              OpenedRoot:
                properties:
                  l1: OpenedRootL1?
                  n1: int?
            """))
        #expect(result.spec.contains("      root: OpenedRoot\n"))
        #expect(ImportFixtures.lines(result) == [
            "2:184: warning: property 'l3' of object type 'OpenedRootL1L2' nests objects more than 3 levels deep, Anna's limit (the deepest Mixpanel takes); it is not imported: send an id or flatten it",
        ])
        #expect(AnnaGenerator().lint(Array(result.spec.utf8), file: "deep.anna.yml").isEmpty)
    }

    @Test func objectPropertiesAvoidStructMembersAndSnakeCaseTwins() throws {
        let result = try spec("""
            {"o": {"type": "object", "properties": {"hash": {"type": "string"}, "productId": {"type": "string"}, "product_id": {"type": "string"}, "URL": {"type": "string"}, "url": {"type": "string"}}}}
            """)
        #expect(result.spec.contains("      hashProperty: string?\n      productId: string?\n      productId2: string?\n      URL: string?\n      url2: string?\n"))
        #expect(AnnaGenerator().lint(Array(result.spec.utf8), file: "o.anna.yml").isEmpty)
    }

    @Test func arraysOfObjectsScalarsAndArrays() throws {
        let result = try spec("""
            {"items": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}}}},
             "categories": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}, "n": {"type": "integer"}}}},
             "tags": {"type": "array", "items": {"type": "string", "maxLength": 10, "enum": ["a", "b"]}},
             "grid": {"type": "array", "items": {"type": "array", "items": {"type": "number"}}},
             "loose": {"type": "array"}}
            """, required: ["items"])
        #expect(result.spec.contains("  OpenedItem:\n    properties:\n      id: string?\n"))
        #expect(result.spec.contains("  OpenedCategory:\n"))
        #expect(result.spec.contains("      items: \"[OpenedItem]\"\n      categories: \"[OpenedCategory]?\"\n"))
        #expect(result.spec.contains("      tags:\n        type: \"[string]?\"\n        maxLength: 10\n        enum:\n          - a\n          - b\n"))
        #expect(result.spec.contains("      grid: \"[double]?\"\n      loose: \"[string]?\"\n"))
        #expect(ImportFixtures.lines(result) == [
            "5:37: warning: parameter 'grid' of event 'Opened' is an array of arrays; providers cannot take nested arrays, so it is written as one level, [double]",
            "6:11: warning: parameter 'loose' of event 'Opened' is an array without 'items'; Anna's arrays are typed, so it is written as [string]",
        ])
    }

    @Test func identicalObjectsShareATypeAndNamesNeverMerge() throws {
        let object = "{\"type\": \"object\", \"properties\": {\"id\": {\"type\": \"string\"}}}"
        let other = "{\"type\": \"object\", \"properties\": {\"id\": {\"type\": \"integer\"}}}"
        let plan = """
            {"rules": [
              {"key": "Order", "type": "TRACK", "jsonSchema": {"properties": {"properties": {"properties": {"item detail": \(object)}}}}},
              {"key": "Order Item", "type": "TRACK", "jsonSchema": {"properties": {"properties": {"properties": {"detail": \(other)}}}}},
              {"key": "Refund", "type": "TRACK", "jsonSchema": {"properties": {"properties": {"properties": {"detail": \(object)}}}}}
            ]}
            """
        let result = try ImportFixtures.importText(plan)
        #expect(result.spec.contains("  OrderItemDetail:\n    properties:\n      id: string?\n  OrderItemDetail2:\n    properties:\n      id: int?\n"))
        #expect(result.spec.contains("  Refund:\n    parameters:\n      detail: OrderItemDetail?\n"))
        #expect(!result.spec.contains("OrderItemDetail3"))
    }

    @Test func typeNamesAvoidSwiftAndAnnaTypes() throws {
        let result = try spec("{\"event\": {\"type\": \"object\", \"properties\": {\"x\": {\"type\": \"string\"}}}}", name: "Analytics")
        #expect(result.spec.contains("  AnalyticsEventType:\n"))
        #expect(result.spec.contains("      event: AnalyticsEventType?\n"))
    }

    @Test func enumsInsideObjectsAndCollidingInlineEnumsBecomeNamedTypes() throws {
        let result = try spec("""
            {"products": {"type": "array", "items": {"type": "object", "properties": {"size": {"type": "string", "enum": ["s", "m"]}}}},
             "product": {"type": "string", "enum": ["new", "used"]},
             "state": {"type": "string", "enum": ["open", "closed"]}}
            """, name: "Order")
        #expect(result.spec.contains("  OrderProductSize:\n    enum:\n      - s\n      - m\n"))
        #expect(result.spec.contains("  OrderProduct:\n    properties:\n      size: OrderProductSize?\n"))
        #expect(result.spec.contains("  OrderProduct2:\n    enum:\n      - new\n      - used\n"))
        #expect(result.spec.contains("      product: OrderProduct2?\n      state:\n        type: string?\n        enum:\n          - open\n          - closed\n"))
    }

    @Test func boundsAndLengths() throws {
        let result = try spec("""
            {"a": {"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 10.5},
             "b": {"type": "integer", "minimum": 0.5, "maximum": 9.5},
             "c": {"type": "integer", "minimum": 3, "exclusiveMinimum": true},
             "d": {"type": "string", "minLength": 1, "maxLength": 3, "pattern": "^[a-z]+$"},
             "e": {"type": "number", "minimum": 5, "maximum": 1},
             "f": {"type": "number", "minimum": -1e400, "maximum": 1e300}}
            """)
        #expect(result.spec.contains("      a:\n        type: int?\n        min: 1\n        max: 10\n"))
        #expect(result.spec.contains("      b:\n        type: int?\n        min: 1\n        max: 9\n"))
        #expect(result.spec.contains("      c:\n        type: int?\n        min: 4\n"))
        #expect(result.spec.contains("      d:\n        type: string?\n        minLength: 1\n        maxLength: 3\n        pattern: ^[a-z]+$\n"))
        #expect(result.spec.contains("      e: double?\n"))
        #expect(result.spec.contains("      f:\n        type: double?\n        max: 1e+300\n"))
        #expect(AnnaGenerator().lint(Array(result.spec.utf8), file: "b.anna.yml").isEmpty)
        #expect(ImportFixtures.lines(result) == ["6:7: warning: parameter 'e' of event 'Opened' allows no number (minimum 5 above maximum 1); its bounds are not imported"])
    }

    /// Every loss is a warning at the keyword that caused it.
    @Test func lossesAreLocatedAtTheirKeyword() throws {
        let result = try ImportFixtures.importPlan("lossy.json")
        #expect(result.hasWarnings)
        #expect(ImportFixtures.lines(result) == [
            "11:13: warning: 'additionalProperties' of event 'Payment Failed' is not imported: Anna sends only declared properties; declare the ones you send",
            "12:25: warning: 'required' of event 'Payment Failed' names 'ghost', which its 'properties' do not declare; it is not imported",
            "14:35: warning: parameter 'amount' of event 'Payment Failed' is a union of types (number, string); Anna has no unions, so it is written as string",
            "15:36: warning: 'oneOf' of parameter 'reason' of event 'Payment Failed' asks for one of several schemas; Anna has no such rule, so only the first is imported",
            "17:54: warning: format 'email' of parameter 'email' of event 'Payment Failed' is not checked by Anna; the value is a plain string",
            "18:64: warning: 'exclusiveMaximum' of parameter 'ratio' of event 'Payment Failed' is written as an inclusive 'max': Anna's bounds include the limit",
            "18:81: warning: 'multipleOf' of parameter 'ratio' of event 'Payment Failed' is not imported: Anna has no such constraint",
            "19:86: warning: 'minItems' of parameter 'codes' of event 'Payment Failed' is not imported: Anna constrains an array's elements, not the array",
            "19:104: warning: 'uniqueItems' of parameter 'codes' of event 'Payment Failed' is not imported: Anna constrains an array's elements, not the array",
            "20:53: warning: the allowed values of the number parameter 'level' of event 'Payment Failed' are not imported: Anna's enums are strings; use min and max",
            "21:54: warning: 'pattern' of parameter 'slug' of event 'Payment Failed' is not imported: Anna's patterns cannot say it (lookahead ((?=…) and (?!…)) is not supported; match the text itself, or check it in code); see the pattern syntax in the Tracking Spec article (TrackingSpec.md)",
            "22:51: warning: the values of 'enum' of parameter 'path' of event 'Payment Failed' cannot all be Swift case names; written as a pattern that accepts exactly them, without a Swift enum",
            "28:5: warning: page rules are not imported: Anna's apps report screens, not web pages",
            "34:25: warning: the rule for every message declares 'context'; Anna has no such rule, so it is not imported (declare global properties under globals:)",
        ])
    }

    /// An enum written as a pattern accepts exactly its values, with Anna's own matcher.
    @Test func enumPatternAcceptsExactlyTheValues() throws {
        let values = ["a/b", "c d!", "x.y", "1+1", "(p)", "[q]", "^$", "tab\there"]
        let json = values.map(HostileImportTests.jsonString).joined(separator: ", ")
        let result = try spec("{\"v\": {\"type\": \"string\", \"enum\": [\(json)]}}")
        let line = try #require(result.spec.split(separator: "\n").first { $0.contains("pattern:") })
        let root = try YAMLParser().parse(Array("p: \(line.split(separator: ": ", maxSplits: 1)[1])\n".utf8), file: "p.yml")
        guard case .mapping(let pairs) = root.content, case .scalar(let pattern, _) = pairs[0].value.content else {
            Issue.record("no pattern in \(result.spec)")
            return
        }
        let program = try RegexProgram(pattern)
        for value in values { #expect(program.matches(value), "\(value)") }
        for value in ["a/bc", "c d", "xzy", "11", "p", "q", "", "tab here"] { #expect(!program.matches(value), "\(value)") }
    }

    @Test func aPropertyDeclaredTwiceKeepsTheLastDeclaration() throws {
        let result = try spec("{\"a\": {\"type\": \"string\"},\n \"a\": {\"type\": \"integer\"}}")
        #expect(result.spec.contains("      a: int?\n"))
        #expect(!result.spec.contains("a2"))
        #expect(ImportFixtures.lines(result) == [
            "2:50: warning: parameter 'a' of event 'Opened' is declared again at line 3, column 2; the last declaration is imported, as JSON readers keep it",
        ])
    }

    /// The Public API marks deprecated rules with a date; year 1 means never.
    @Test func deprecatedRulesBecomeDeprecatedEvents() throws {
        let result = try ImportFixtures.importText("""
            {"rules": [
              {"key": "Old", "type": "TRACK", "deprecatedAt": "2024-05-01T00:00:00.000Z", "jsonSchema": {}},
              {"key": "New", "type": "TRACK", "deprecatedAt": "0001-01-01T00:00:00.000Z", "jsonSchema": {}}
            ]}
            """)
        #expect(result.spec.contains("  Old:\n    deprecated: Deprecated in the Segment tracking plan on 2024-05-01T00:00:00.000Z.\n  New: {}\n"))
        #expect(AnnaGenerator().lint(Array(result.spec.utf8), file: "d.anna.yml").isEmpty)
    }

    @Test func unknownJSONTypesAreReported() throws {
        let result = try spec("{\"a\": {\"type\": \"strng\"}, \"b\": {\"type\": [\"int\", \"integer\"]}}")
        #expect(result.spec.contains("      a: string?\n      b: int?\n"))
        #expect(ImportFixtures.lines(result) == [
            "2:64: warning: parameter 'a' of event 'Opened' has the type 'strng', which JSON Schema does not have; it is ignored (a schema with no other type is written as string)",
            "2:88: warning: parameter 'b' of event 'Opened' has the type 'int', which JSON Schema does not have; it is ignored (a schema with no other type is written as string)",
        ])
    }
}
