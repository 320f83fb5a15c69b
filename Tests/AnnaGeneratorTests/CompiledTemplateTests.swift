import Foundation
import Testing
@testable import _AnnaGeneratorCore
@testable import _AnnaGovernance

/// The built-in templates are rendered by Swift compiled from them
/// (`CompiledTemplates`); the Mustache templates stay the reference. These tests
/// hold the two to the same bytes.
@Suite struct CompiledTemplateTests {
    /// Every `*.anna.yml` under the fixture folders, found by walking them, and the
    /// other specs the package builds (the focus-path tests' and the example app's).
    static let specs: [URL] = {
        let roots = [
            Fixtures.directory,
            Fixtures.packageRoot.appending(path: "Tests/AnnaFocusPathTests", directoryHint: .isDirectory),
            Fixtures.packageRoot.appending(path: "Examples", directoryHint: .isDirectory),
        ]
        var found: [URL] = []
        for root in roots {
            guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walker where url.lastPathComponent.hasSuffix(".anna.yml") && !url.path.contains("/.build") {
                found.append(url)
            }
        }
        return found.sorted { $0.path < $1.path }
    }()

    static func mustacheRenderer() throws -> SwiftRenderer {
        try SwiftRenderer(mustacheTemplates: DefaultTemplates.all)
    }

    /// Renders a spec both ways; `nil` when the spec has errors.
    static func renderBothWays(_ bytes: [UInt8], file: String) throws -> (compiled: String, mustache: String)? {
        guard let spec = AnnaGenerator().check(bytes, file: file).spec else { return nil }
        let model = SpecTranslator().translate(spec)
        return (SwiftRenderer().render(model), try mustacheRenderer().render(model))
    }

    @Test func theDefaultRendererIsTheCompiledOne() {
        #expect(SwiftRenderer().engine is CompiledTemplateEngine, "SwiftRenderer() should render with the compiled templates")
    }

    @Test func everyValidSpecRendersTheSameBothWays() throws {
        var rendered: Set<String> = []
        for spec in Self.specs {
            guard let (compiled, mustache) = try Self.renderBothWays(try Fixtures.bytes(spec), file: spec.lastPathComponent) else { continue }
            rendered.insert(spec.lastPathComponent)
            #expect(compiled == mustache, "\(spec.lastPathComponent): the compiled templates differ from Templates/*.mustache")
        }
        // The walk found the golden inputs, the other specs the package builds, and valid adversarial ones.
        let expected = Set(Fixtures.specs(in: "Valid").map(\.lastPathComponent) + ["master-detail.anna.yml", "shop.anna.yml", "keywords.anna.yml"])
        #expect(expected.isSubset(of: rendered), "not rendered: \(expected.subtracting(rendered).sorted())")
        #expect(rendered.count > expected.count + 5)
    }

    @Test func theLargeSpecRendersTheSameBothWays() async throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "anna-large-\(UUID().uuidString).anna.yml")
        defer { try? FileManager.default.removeItem(at: file) }
        let script = Fixtures.packageRoot.appending(path: "scripts/make-large-spec.py").path
        let (status, output) = try await SwiftCompiler.run([script, "1000", file.path], executable: "python3")
        try #require(status == 0, "make-large-spec.py failed:\n\(output)")
        let rendered = try #require(try Self.renderBothWays(try Fixtures.bytes(file), file: "large-1000.anna.yml"))
        #expect(rendered.compiled.utf8.count > 500_000)
        #expect(rendered.compiled == rendered.mustache)
    }

    /// Models no spec produces today but the model allows: empty lists, an empty
    /// availability (a present `String` renders its section in Mustache), a first
    /// event not marked first, flags that disagree with their lists, values with
    /// newlines and braces.
    @Test(arguments: 0..<200)
    func arbitraryModelsRenderTheSameBothWays(seed: Int) throws {
        var random = SplitMix64(seed: UInt64(seed))
        let model = RenderModel.arbitrary(using: &random)
        #expect(SwiftRenderer().render(model) == (try Self.mustacheRenderer().render(model)))
    }

    @Test func aTemplatesFolderWithoutTemplatesKeepsTheCompiledRenderer() throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "anna-templates-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let renderer = try SwiftRenderer(templatesDirectory: directory)
        #expect(renderer.engine is CompiledTemplateEngine, "a folder that replaces no template should keep the compiled renderer")
    }

    @Test func aTemplatesFolderThatReplacesATemplateRendersWithMustache() throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "anna-templates-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // The built-in enum template under its own name: Mustache must render the whole file.
        try Data((DefaultTemplates.all["enum"] ?? "").utf8).write(to: directory.appending(path: "enum.mustache"))
        let renderer = try SwiftRenderer(templatesDirectory: directory)
        guard renderer.engine is MustacheTemplateEngine else {
            Issue.record("a folder that replaces a template should render with Mustache")
            return
        }
        let spec = Array("anna: 1\ntypes:\n  Kind: { enum: [a, b] }\nevents:\n  opened:\n    parameters:\n      kind: Kind\n".utf8)
        let expected = try AnnaGenerator().generate(spec, file: "t.anna.yml").source
        #expect(try AnnaGenerator(renderer: renderer).generate(spec, file: "t.anna.yml").source == expected)
    }
}

/// A small deterministic generator, so a failing seed can be rerun.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension RenderModel {
    static func arbitrary(using random: inout SplitMix64) -> RenderModel {
        func text() -> String {
            ["", "a", "ä x", "{{x}}", "line\nbreak", "\n", "trailing\n\n", "\"quoted\"", "x = 1,", "🙂"].randomElement(using: &random) ?? ""
        }
        func texts() -> [String] { (0..<Int.random(in: 0...3, using: &random)).map { _ in text() } }
        func maybe() -> String? { Bool.random(using: &random) ? text() : nil }
        let events = (0..<Int.random(in: 0...3, using: &random)).map { _ in
            EventModel(
                isFirst: Bool.random(using: &random), docLines: texts(), availability: maybe(),
                isProperty: Bool.random(using: &random), name: text(), arguments: texts(),
                hasRequiredParameters: Bool.random(using: &random), parametersKeyword: text(),
                requiredEntries: texts(), optionalAssignments: texts(), nameLiteral: text(), metadataArgument: text()
            )
        }
        func enums() -> [EnumModel] {
            (0..<Int.random(in: 0...2, using: &random)).map { _ in
                EnumModel(docLines: texts(), name: text(), indent: text(), cases: texts().map { CaseModel(declaration: $0) })
            }
        }
        let propertySets = (0..<Int.random(in: 0...3, using: &random)).map { _ in
            PropertySetModel(
                typeName: text(), enums: enums(),
                properties: (0..<Int.random(in: 0...3, using: &random)).map { _ in
                    PropertyModel(isFirst: Bool.random(using: &random), docLines: texts(), name: text(), valueType: text(), initializer: text())
                }
            )
        }
        let globalKeys = (0..<Int.random(in: 0...2, using: &random)).map { _ in
            GlobalKeyModel(docLines: texts(), name: text(), nameLiteral: text())
        }
        let tasks = (0..<Int.random(in: 0...2, using: &random)).map { _ in
            TaskModel(matchLiteral: text(), sourceLiteral: text(), parameterName: text(), body: text(), separator: text())
        }
        let metadata = (0..<Int.random(in: 0...2, using: &random)).map { _ in MetadataModel(name: text(), initializer: text()) }
        return RenderModel(
            sourceFileName: text(), imports: texts(), access: text(), enums: enums(), events: events,
            hasEvents: Bool.random(using: &random), metadata: metadata, hasMetadata: Bool.random(using: &random),
            hasScreens: Bool.random(using: &random), screenEnums: enums(), screens: events.shuffled(using: &random),
            screenMetadata: metadata.shuffled(using: &random), hasScreenMetadata: Bool.random(using: &random),
            propertySets: propertySets, hasGlobals: Bool.random(using: &random), globalKeys: globalKeys,
            hasTasks: Bool.random(using: &random), taskSetName: text(), taskSetNameLiteral: text(),
            taskSetAvailability: maybe(), tasks: tasks
        )
    }
}
