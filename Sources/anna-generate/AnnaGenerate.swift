import Foundation
import _AnnaGeneratorCore

/// The build plugin's tool: `anna-generate SPEC OUTPUT` writes the Swift generated
/// from one spec, only when the bytes change, and prints the spec's diagnostics as
/// `file:line:column: error: …`. It is `anna generate` without the command line
/// around it, so an app's first build compiles no argument parser. Exit status: 0,
/// 1 for an error in the spec, 2 for a bad invocation.
@main
enum AnnaGenerate {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard arguments.count == 2 else {
            FileHandle.standardError.write(Data("usage: anna-generate SPEC OUTPUT (the build plugin's tool; by hand, run `anna generate`)\n".utf8))
            exit(2)
        }
        let (spec, output) = (arguments[0], arguments[1])
        do throws(SpecError) {
            var generator = AnnaGenerator()
            generator.keepsMemoryUntilExit = true
            let (warnings, written) = try generator.generate(try AnnaGenerator.read(spec), file: spec, writingTo: output)
            report(warnings)
            if case .failure(let error) = written {
                FileHandle.standardError.write(Data("\(output): error: cannot write the generated file: \(error.localizedDescription)\n".utf8))
                exit(1)
            }
        } catch {
            report(error.diagnostics)
            exit(1)
        }
    }

    static func report(_ diagnostics: [Diagnostic]) {
        for diagnostic in diagnostics { FileHandle.standardError.write(Data((diagnostic.description + "\n").utf8)) }
    }
}
