import Foundation
import Testing
@testable import _AnnaClientGenerator
@testable import _AnnaGeneratorCore

/// The pieces around the one walk: the templates it fills, the command line's
/// choices read into types, and the one rule naming each language's file.
@Suite struct ClientSyntaxTests {
    @Test func templatesFillHolesInOnePassAndKeepOtherBraces() {
        let lines = ClientTemplates.Key.allCases.map { "\($0.rawValue): {value}" }
        var text = lines.joined(separator: "\n")
        text = text.replacingOccurrences(of: "store: {value}", with: "store: if (x) { {target}[{key}] = {value}; }\\n")
        let table = ClientTemplates(text)
        // A value holding a hole's spelling (a wire name such as `{value}`) stays as it is.
        #expect(table[.store, ["target": "payload", "key": "\"{value}\"", "value": "{target}"]]
            == "if (x) { payload[\"{value}\"] = {target}; }\n")
        #expect(table[.payload] == "")
        #expect(!table.isIdentity(.enumWire))
        #expect(ClientTemplates(lines.joined(separator: "\n").replacingOccurrences(of: "enumWire: {value}", with: "enumWire: {element}"))
            .isIdentity(.enumWire))
    }

    @Test func theCommandLinesChoicesAreReadOnceWithTheOptionAndItsChoicesInTheError() throws {
        #expect(try ClientLanguage(parsing: "kotlin") == .kotlin)
        #expect(try ClientNaming(parsing: "snake_case") == .snakeCase)
        #expect(throws: ClientOptionError(option: "--language", value: "java", choices: ["swift", "typescript", "kotlin"])) {
            try ClientLanguage(parsing: "java")
        }
        let naming = ClientOptionError(option: "--naming", value: "snake", choices: ClientNaming.allCases.map(\.rawValue))
        #expect(naming.description == "--naming must be spec or snake_case, not 'snake'.")
        #expect(throws: naming) { try ClientNaming(parsing: "snake") }
    }

    @Test func oneRuleNamesEveryLanguagesFile() {
        let swift = AnnaGenerator.outputFileName(for: "Specs/catalog.anna.yml")
        #expect(ClientLanguage.allCases.map { $0.outputFileName(forSwiftFile: swift) }
            == ["catalog.anna.swift", "catalog.anna.ts", "catalog.anna.kt"])
        #expect(ClientLanguage.kotlin.outputFileName(forSwiftFile: "A_catalog.anna.swift") == "A_catalog.anna.kt")
    }
}
