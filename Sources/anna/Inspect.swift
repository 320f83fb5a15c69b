import ArgumentParser
import Foundation

/// `anna inspect` becomes `anna-inspect`, a separate executable: serving HTTP needs
/// SwiftNIO, which the tool the build plugin runs must not compile. The process is
/// replaced (`execv`), so signals, standard output and the exit status are its own.
struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Runs a local collector that checks every call against the specs, with a live page and a CI gate.",
        discussion: """
            Runs anna-inspect, built with `swift build --traits Inspector --product anna-inspect`, from beside this tool \
            or the PATH; its options follow (anna-inspect --help lists them).
            """
    )

    @Argument(parsing: .allUnrecognized, help: "Specs and options passed to anna-inspect.")
    var arguments: [String] = []

    func run() throws {
        let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let candidates = [me.deletingLastPathComponent().appending(path: "anna-inspect")]
            + (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { URL(fileURLWithPath: String($0)).appending(path: "anna-inspect") }
        guard let tool = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            FileHandle.standardError.write(Data("""
                anna inspect: error: anna-inspect is not built beside this tool; run `swift build --traits Inspector --product \
                anna-inspect`, then run this again. It needs SwiftNIO, which comes with Anna's Inspector trait: in an app's \
                package, depend on Anna with traits: ["Inspector"]; in Anna's own folder, add --traits Inspector to swift build

                """.utf8))
            throw ExitCode(2)
        }
        let argv = ([tool.path] + arguments).map { strdup($0) } + [nil]
        execv(tool.path, argv)
        FileHandle.standardError.write(Data("anna inspect: error: cannot run \(tool.path): \(String(cString: strerror(errno)))\n".utf8))
        throw ExitCode(2)
    }
}
