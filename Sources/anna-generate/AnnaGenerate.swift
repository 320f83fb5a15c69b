#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import _AnnaGeneratorCore

/// The build plugin's tool: `anna-generate SPEC OUTPUT` writes the Swift generated
/// from one spec, only when the bytes change, and prints the spec's diagnostics as
/// `file:line:column: error: …`. It is `anna generate` without the command line
/// around it, so an app's first build compiles no argument parser. Exit status: 0,
/// 1 for an error in the spec, 2 for a bad invocation.
///
/// It imports no Foundation, and the pipeline only FoundationEssentials where that
/// exists (Linux): loading Foundation and ICU took 2.7 ms of each run, and importing
/// Foundation made each of the tool's compile jobs in an app's first build longer.
@main
enum AnnaGenerate {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard arguments.count == 2 else {
            printError("usage: anna-generate SPEC OUTPUT (the build plugin's tool; by hand, run `anna generate`)")
            exit(2)
        }
        let (spec, output) = (arguments[0], arguments[1])
        do throws(SpecError) {
            let (warnings, written, retained) = try AnnaGenerator().generate(try AnnaGenerator.read(spec), file: spec, writingTo: output)
            report(warnings)
            if case .failure(let error) = written {
                printError("\(output): error: cannot write the generated file: \(error)")
                exit(1)
            }
            // The tree, spec and model are left to the exit, which frees them at once.
            withExtendedLifetime(retained) { exit(0) }
        } catch {
            report(error.diagnostics)
            exit(1)
        }
    }

    static func report(_ diagnostics: [Diagnostic]) {
        for diagnostic in diagnostics { printError(diagnostic.description) }
    }

    /// Writes a line to standard error.
    static func printError(_ line: String) {
        var text = line + "\n"
        _ = text.withUTF8 { writeAll($0, to: 2) }
    }
}
