import ArgumentParser
import Foundation
import _AnnaClientGenerator
import _AnnaGeneratorCore
import _AnnaGovernance

struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generates Swift, TypeScript or Kotlin from tracking specs.",
        discussion: "Writes NAME.anna.swift (NAME.anna.ts, NAME.anna.kt) for each NAME.anna.yml, only when its contents change."
    )

    @Argument(help: "Tracking spec files (*.anna.yml).")
    var specs: [String]

    @Option(help: "The folder to write generated files into.")
    var output: String?

    @Option(name: .customLong("output-file"), help: "The file to write, for a single spec (used by the build plugin).")
    var outputFile: String?

    @Option(help: "A folder of Mustache templates replacing the built-in ones (file, enum, event, screen, property).")
    var templates: String?

    @Option(help: "The language to write: swift, typescript or kotlin. (default: swift)", transform: { try ClientLanguage(parsing: $0) })
    var language: ClientLanguage = .swift

    @Option(
        help: "TypeScript and Kotlin: the names sent, spec (as written) or snake_case (as the runtime's SnakeCaseEventMapper maps them). (default: spec)",
        transform: { try ClientNaming(parsing: $0) })
    var naming: ClientNaming = .spec

    @Option(name: .customLong("kotlin-package"), help: "Kotlin: the generated file's package (com.example.analytics).")
    var kotlinPackage: String?

    @Flag(help: "Write nothing; exit 1 when a generated file is missing or differs from what its spec generates (CI, for generated code kept in the repository).")
    var check = false

    /// The file each spec generates into one folder: `x.anna.swift`, or, for specs
    /// that share a base name (`A/x.anna.yml`, `B/x.anna.yml`), their paths below the
    /// folder they have in common joined with `_` (`A_x.anna.swift`), as the build
    /// plugin names files, so that neither overwrites the other.
    static func outputNames(for specs: [String]) -> [String: String] {
        var names: [String: String] = [:]
        let groups = Dictionary(grouping: Set(specs), by: { AnnaGenerator.outputFileName(for: $0) })
        for (name, group) in groups {
            guard group.count > 1 else {
                names[group[0]] = name
                continue
            }
            let paths = group.map { URL(fileURLWithPath: $0).standardizedFileURL.pathComponents }
            var common = paths[0].dropLast()
            for components in paths.dropFirst() {
                while !components.starts(with: common) { common = common.dropLast() }
            }
            for (spec, components) in zip(group, paths) {
                let relative = components.dropFirst(common.count).joined(separator: "/")
                names[spec] = AnnaGenerator.outputFileName(forRelativePath: relative)
            }
        }
        return names
    }

    func validate() throws {
        if (output == nil) == (outputFile == nil) {
            throw ValidationError("Give either --output DIR or --output-file FILE.")
        }
        if outputFile != nil && specs.count != 1 {
            throw ValidationError("--output-file takes exactly one spec.")
        }
        if language == .swift && (naming != .spec || kotlinPackage != nil) {
            throw ValidationError("--naming and --kotlin-package are for TypeScript and Kotlin; Swift maps names at run time (SnakeCaseEventMapper).")
        }
        if language != .swift && templates != nil {
            throw ValidationError("--templates replaces the Swift templates; it cannot be used with --language \(language.rawValue).")
        }
        if let kotlinPackage, !kotlinPackage.split(separator: ".", omittingEmptySubsequences: false).allSatisfy({ part in
            part.first.map { $0.isLetter || $0 == "_" } == true && part.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
        }) {
            throw ValidationError("--kotlin-package must be dot-separated identifiers (com.example.analytics), not '\(kotlinPackage)'.")
        }
    }

    func run() throws {
        let generator: AnnaGenerator
        do {
            generator = try templates.map { try AnnaGenerator(templatesDirectory: URL(fileURLWithPath: $0)) } ?? AnnaGenerator()
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            throw ExitCode.failure
        }
        var failed = false
        var retained: AnyObject?  // the last spec's tree, spec and model: left to the exit
        let names = Self.outputNames(for: specs)
        let options = ClientOptions(naming: naming, kotlinPackage: kotlinPackage)
        for spec in specs {
            do throws(SpecError) {
                let name = language.outputFileName(forSwiftFile: names[spec] ?? AnnaGenerator.outputFileName(for: spec))
                let path = outputFile ?? ((output ?? ".") as NSString).appendingPathComponent(name)
                let (warnings, written, kept) = try generator.generate(
                    try AnnaGenerator.read(spec), file: spec, language: language, options: options,
                    writingTo: path, onlyComparing: check)
                retained = kept
                report(warnings)
                if !accept(written, path: path, spec: spec) { failed = true }
            } catch {
                report(error.diagnostics)
                failed = true
            }
        }
        if failed { throw ExitCode.failure }
        // Exits here, not by returning: the process's exit takes back the last spec's
        // memory at once, where freeing it node by node cost a millisecond in ten.
        withExtendedLifetime(retained) { Foundation.exit(0) }
    }

    /// Reports a failed write, or a file `--check` found out of date.
    /// - Returns: Whether the file is as it should be.
    func accept(_ written: Result<Bool, any Error>, path: String, spec: String) -> Bool {
        switch written {
        case .failure(let error):
            let doing = check ? "read" : "write"
            FileHandle.standardError.write(Data("\(path): error: cannot \(doing) the generated file: \(error)\n".utf8))
            return false
        case .success(true) where check:
            FileHandle.standardError.write(Data(
                "\(path):1:1: error: generated code is out of date with \(spec); run the same `anna generate` without --check to write it\n".utf8))
            return false
        case .success:
            return true
        }
    }
}
