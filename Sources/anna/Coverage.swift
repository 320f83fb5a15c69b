import ArgumentParser
import Foundation

/// `anna coverage` runs `anna-coverage`, a separate executable: reading Swift needs
/// swift-syntax, which the tool the build plugin runs must not compile.
struct Coverage: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coverage",
        abstract: "For every declared event and screen: where the package reports it, whether tests assert it, whether a task reports it.",
        discussion: """
            Runs anna-coverage, built with `swift build --product anna-coverage` (or run it \
            directly: swift run anna-coverage; it needs Anna's Coverage trait), from beside this tool. Options: --package PATH (default .), --format text|json, --fail-unused (exit 1 \
            when an event or screen is never reported by app code or a task).
            """
    )

    @Argument(parsing: .allUnrecognized, help: "Options passed to anna-coverage.")
    var arguments: [String] = []

    func run() throws {
        let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let candidates = [me.deletingLastPathComponent().appending(path: "anna-coverage")]
            + (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { URL(fileURLWithPath: String($0)).appending(path: "anna-coverage") }
        guard let tool = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            FileHandle.standardError.write(Data("""
                anna coverage: error: anna-coverage is not built beside this tool; run `swift build --product anna-coverage`, \
                then run this again. It needs swift-syntax, which comes with Anna's Coverage trait: in an app's package, depend \
                on Anna with traits: ["Coverage"]; in Anna's own folder, add --traits Coverage to swift build

                """.utf8))
            throw ExitCode(2)
        }
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus != 0 { throw ExitCode(process.terminationStatus) }
    }
}
