import ArgumentParser
import Foundation
import _AnnaGeneratorCore

/// The `anna` tool. Every subcommand names itself in its configuration: without a
/// `commandName`, ArgumentParser derives one from `String(describing:)` of the type
/// on every run, which searches the conformance tables and was a third of
/// `anna generate`'s start-up.
@main
struct AnnaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "anna",
        abstract: "Checks Anna tracking specs and generates typed Swift from them.",
        version: AnnaGenerator.version,
        subcommands: [Generate.self, Lint.self, Diff.self, Docs.self, Privacy.self, Coverage.self, Bundle.self, Import.self, Export.self, Inspect.self]
    )

    /// Runs `anna generate` in its common forms straight away
    /// (``Generate/init(commonForm:)``), and every other command line through
    /// ArgumentParser, as its own `main()` does.
    static func main() {
        guard let generate = Generate(commonForm: Array(CommandLine.arguments.dropFirst())) else {
            main(nil)
            return
        }
        do {
            try generate.run()
        } catch {
            exit(withError: error)
        }
    }
}

/// Prints diagnostics the way compilers do, so Xcode and editors place them.
func report(_ diagnostics: [Diagnostic]) {
    for diagnostic in diagnostics {
        FileHandle.standardError.write(Data((diagnostic.description + "\n").utf8))
    }
}

