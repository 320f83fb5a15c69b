import Foundation
import Testing
@testable import _AnnaGeneratorCore
@testable import _AnnaGovernance

/// `anna export` over every valid spec in the repository: Segment's rules read back
/// by `anna import` give the same plan (no change for `anna diff`) wherever the import
/// can carry the plan, and every Iglu schema and Segment rule is valid under the
/// meta-schema it declares, checked by Python's `jsonschema`.
@Suite struct ExportRoundTripTests {
    /// Every `.anna.yml` of the repository that validates, with its spec; the invalid
    /// fixtures (Invalid/, Adversarial/, the error corpus) are skipped as the validator refuses them.
    static func repositorySpecs() throws -> [TrackingSpec] {
        let root = Fixtures.packageRoot
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        var specs: [TrackingSpec] = []
        while let relative = enumerator?.nextObject() as? String {
            if relative.hasPrefix(".") || relative.contains("/.") || relative.hasPrefix("Benchmarks/.build") { continue }
            guard relative.hasSuffix(".anna.yml") else { continue }
            let path = root.appending(path: relative).path
            guard let bytes = try? AnnaGenerator.read(path), let spec = AnnaGenerator().check(bytes, file: relative).spec else { continue }
            specs.append(spec)
        }
        return specs.sorted { $0.file < $1.file }
    }

    /// What Segment's rules and `anna import` cannot carry, by spec, or `nil` when
    /// the round trip must give the same plan.
    static func unsupported(_ spec: TrackingSpec) -> String? {
        let parameters = (spec.events + spec.screens).flatMap(\.parameters) + spec.objects.flatMap(\.properties)
        if spec.access == .public { return "access: public" }
        if spec.globals.contains(where: \.isPersisted) { return "persisted globals" }
        if !spec.globals.isEmpty, spec.events.isEmpty, spec.screens.isEmpty { return "globals without an event to carry them" }
        if !spec.tasks.isEmpty { return "tasks" }
        if (spec.traits + spec.groupTraits).contains(where: { !$0.isPII }) { return "pii: false on a trait" }
        // One schema holds an object parameter (not a list) and its type, so one
        // description: the import gives it to both.
        for parameter in parameters + spec.traits + spec.groupTraits {
            if case .object(let name) = parameter.type.base, !parameter.type.isArray,
               parameter.description != nil || spec.objects.first(where: { $0.name == name })?.description != nil {
                return "a description on an object parameter or its type"
            }
        }
        // The import reads a blank description as none, and names types in UpperCamelCase.
        let descriptions = (spec.events + spec.screens).map(\.description) + (parameters + spec.traits + spec.groupTraits).map(\.description)
            + spec.objects.map(\.description)
        if descriptions.contains(where: { $0.map { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty } ?? false }) { return "a blank description" }
        let inline = Set((parameters + spec.traits + spec.groupTraits + spec.globals).filter { $0.constraints.allowedValues != nil }.map(\.type.base.specName))
        let declared = spec.types.map(\.name).filter { !inline.contains($0) } + spec.objects.map(\.name)
        if declared.contains(where: { !Self.isUpperCamelCase($0) }) {
            return "a type name that is not UpperCamelCase"
        }
        // Rules declare what events use; a type nothing uses is not in them.
        let used = Set((parameters + spec.traits + spec.groupTraits + spec.globals).map(\.type.base.specName))
        if (spec.types.map(\.name) + spec.objects.map(\.name)).contains(where: { !used.contains($0) }) { return "a type no parameter uses" }
        // The import names an object type's inline enum as a type of its own.
        if spec.objects.contains(where: { $0.properties.contains { $0.constraints.allowedValues != nil } }) {
            return "an inline enum in an object type"
        }
        if (spec.traits + spec.groupTraits).contains(where: { $0.constraints.allowedValues != nil || $0.type.isOptional }) {
            return "inline enums or optionals in traits"
        }
        return nil
    }

    static func isUpperCamelCase(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, ("A"..."Z").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) }
    }

    @Test func segmentRulesImportBackToTheSamePlan() throws {
        let specs = try Self.repositorySpecs()
        var supported = 0
        var skipped: [String: Int] = [:]
        for spec in specs {
            if let reason = Self.unsupported(spec) {
                skipped[reason, default: 0] += 1
                continue
            }
            let plan = PlanExporter().segmentPlan([spec])
            #expect(plan == PlanExporter().segmentPlan([spec]), "\(spec.file): the same plan gives the same bytes")
            let imported = try PlanImporter(namespace: spec.namespace).importPlan(Array(plan.utf8), file: "plan.json")
            let back = AnnaGenerator().check(Array(imported.spec.utf8), file: "back.anna.yml")
            guard let backSpec = back.spec else {
                Issue.record("\(spec.file): the imported spec is invalid: \(back.diagnostics.map(\.description))\n\(imported.spec)")
                continue
            }
            let changes = SpecDiff.changes(from: spec, to: backSpec)
            #expect(changes.isEmpty, "\(spec.file): \(changes.map(\.message))\n\(imported.spec)")
            #expect(!imported.hasWarnings, "\(spec.file): \(imported.diagnostics.map(\.description))")
            supported += 1
        }
        print("export round trip: \(supported) of \(specs.count) valid specs; left out: \(skipped.sorted { $0.key < $1.key })")
        #expect(supported >= 85, "\(supported) specs round-tripped; left out: \(skipped)")
    }

    @Test func everyExportIsValidUnderItsMetaSchema() async throws {
        let specs = try Self.repositorySpecs()
        let folder = FileManager.default.temporaryDirectory.appending(path: "anna-export-meta-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var igluFiles: [String] = []
        var segmentFiles: [String] = []
        for (index, spec) in specs.enumerated() {
            let specFolder = folder.appending(path: "\(index)")
            try FileManager.default.createDirectory(at: specFolder, withIntermediateDirectories: true)
            let segment = specFolder.appending(path: "tracking-plan.json")
            try PlanExporter().segmentPlan([spec]).write(to: segment, atomically: true, encoding: .utf8)
            segmentFiles.append(segment.path)
            for file in try PlanExporter().igluSchemas([spec], vendor: "com.example") {
                let url = specFolder.appending(path: file.path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try file.contents.write(to: url, atomically: true, encoding: .utf8)
                igluFiles.append(url.path)
            }
        }
        let script = """
            import json, re, sys
            from jsonschema import Draft4Validator, Draft7Validator
            kind = None
            count = 0
            for path in sys.argv[1:]:
                if path in ("--iglu", "--segment"):
                    kind = path
                    continue
                document = json.load(open(path))
                if kind == "--iglu":
                    assert document["$schema"] == "http://iglucentral.com/schemas/com.snowplowanalytics.self-desc/schema/jsonschema/1-0-0#", path
                    me = document["self"]
                    assert set(me) == {"vendor", "name", "format", "version"} and me["format"] == "jsonschema", path
                    assert re.fullmatch(r"[0-9]+-[0-9]+-[0-9]+", me["version"]) and re.fullmatch(r"[a-zA-Z0-9_-]+", me["name"]), path
                    assert path.endswith("/schemas/%s/%s/jsonschema/%s" % (me["vendor"], me["name"], me["version"])), path
                    body = {k: v for k, v in document.items() if k not in ("$schema", "self")}
                    Draft4Validator.check_schema(body)
                    Draft7Validator.check_schema(body)
                else:
                    for rule in document["rules"]:
                        assert rule["jsonSchema"]["$schema"] == "http://json-schema.org/draft-07/schema#"
                        Draft7Validator.check_schema(rule["jsonSchema"])
                count += 1
            print(count)
            """
        let (status, output) = try await SwiftCompiler.run(["-c", script, "--iglu"] + igluFiles + ["--segment"] + segmentFiles, executable: "python3")
        #expect(status == 0, "\(output)")
        #expect(output.trimmingCharacters(in: .whitespacesAndNewlines) == "\(igluFiles.count + segmentFiles.count)")
        print("export meta-schemas: \(specs.count) specs, \(igluFiles.count) Iglu schemas and \(segmentFiles.count) Segment plans valid")
        #expect(igluFiles.count > 100)
    }
}
