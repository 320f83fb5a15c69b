import ArgumentParser
import Foundation
import _AnnaGeneratorCore

struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Generates Swift from tracking specs.",
        discussion: "Writes NAME.anna.swift for each NAME.anna.yml, only when its contents change."
    )

    @Argument(help: "Tracking spec files (*.anna.yml).")
    var specs: [String]

    @Option(help: "The folder to write generated files into.")
    var output: String?

    @Option(name: .customLong("output-file"), help: "The file to write, for a single spec (used by the build plugin).")
    var outputFile: String?

    @Option(help: "A folder of Mustache templates replacing the built-in ones (file, enum, event, screen, property).")
    var templates: String?

    func validate() throws {
        if (output == nil) == (outputFile == nil) {
            throw ValidationError("Give either --output DIR or --output-file FILE.")
        }
        if outputFile != nil && specs.count != 1 {
            throw ValidationError("--output-file takes exactly one spec.")
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
        for spec in specs {
            do throws(SpecError) {
                let (source, warnings) = try generator.generate(try AnnaGenerator.read(spec), file: spec)
                report(warnings)
                let path = outputFile ?? ((output ?? ".") as NSString).appendingPathComponent(AnnaGenerator.outputFileName(for: spec))
                do {
                    try AnnaGenerator.writeIfChanged(source, to: path)
                } catch {
                    FileHandle.standardError.write(Data("\(path): error: cannot write the generated file: \(error.localizedDescription)\n".utf8))
                    failed = true
                }
            } catch {
                report(error.diagnostics)
                failed = true
            }
        }
        if failed { throw ExitCode.failure }
    }
}
