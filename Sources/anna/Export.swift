import ArgumentParser
import Foundation
import _AnnaGeneratorCore
import _AnnaGovernance

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Writes the plan for the engines that check events server-side: Segment's tracking-plan rules, or Iglu schemas.",
        discussion: """
            --format segment writes Segment's tracking-plan rules in the Public API's JSON Schema \
            form (Segment Protocols; anna import reads it back), to --output-file, into --output \
            as tracking-plan.json, or to standard output. --format iglu writes one self-describing \
            JSON Schema per event version into --output, at schemas/VENDOR/NAME/jsonschema/M-R-A, \
            ready for igluctl static push. Files are written only when their bytes change. Exit \
            status: 0, or 2 for an invalid spec or bad input.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case segment, iglu
    }

    @Argument(help: "Tracking spec files or folders.")
    var paths: [String]

    @Option(help: "segment (Segment's tracking-plan rules) or iglu (self-describing JSON Schemas).")
    var format: Format

    @Option(help: "The folder to write into.")
    var output: String?

    @Option(help: "The file to write (segment only).")
    var outputFile: String?

    @Option(help: "The Iglu vendor, such as com.example (iglu only; required there).")
    var vendor: String?

    /// The options' combination, checked before any spec is read.
    private func checkOptions() throws(InputError) {
        if output != nil && outputFile != nil {
            throw InputError("give --output DIR or --output-file FILE, not both")
        }
        switch format {
        case .iglu:
            if outputFile != nil { throw InputError("--format iglu writes a folder of schemas; give --output DIR instead of --output-file") }
            if output == nil { throw InputError("--format iglu writes a folder of schemas; give it with --output DIR") }
            guard let vendor else { throw InputError("--format iglu needs --vendor, the schemas' vendor, such as com.example") }
            if !PlanExporter.isValidVendor(vendor) {
                throw InputError("--vendor '\(vendor)' cannot be an Iglu vendor; use letters, digits, '.', '-' and '_', such as com.example")
            }
        case .segment:
            if vendor != nil { throw InputError("--vendor names Iglu schemas; it has no use with --format segment") }
        }
    }

    struct InputError: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    func run() throws {
        do {
            try checkOptions()
        } catch {
            FileHandle.standardError.write(Data("anna export: error: \(error.message)\n".utf8))
            throw ExitCode(2)
        }
        let specs = try loadSpecs(paths, command: "export")
        var files: [PlanExporter.File]
        switch format {
        case .segment:
            let plan = PlanExporter().segmentPlan(specs)
            guard output != nil || outputFile != nil else {
                print(plan, terminator: "")
                return
            }
            files = [PlanExporter.File(path: "tracking-plan.json", contents: plan)]
        case .iglu:
            do {
                files = try PlanExporter().igluSchemas(specs, vendor: vendor ?? "")
            } catch {
                FileHandle.standardError.write(Data("anna export: error: \(error.description)\n".utf8))
                throw ExitCode(2)
            }
        }
        for file in files {
            let path = outputFile ?? ((output ?? ".") as NSString).appendingPathComponent(file.path)
            do {
                try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try AnnaGenerator.writeIfChanged(file.contents, to: path)
            } catch {
                FileHandle.standardError.write(Data("anna export: error: cannot write \(path): \(error.localizedDescription)\n".utf8))
                throw ExitCode(2)
            }
        }
        if format == .iglu || output != nil {
            print("anna export: wrote \(files.count) file\(files.count == 1 ? "" : "s") to \(output ?? outputFile ?? ".")")
        }
    }
}
