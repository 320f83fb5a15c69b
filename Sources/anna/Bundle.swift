import ArgumentParser
import Foundation
import _AnnaGeneratorCore
import _AnnaGovernance

struct Bundle: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bundle",
        abstract: "Writes the specs' tasks as a task bundle for apps to load at run time, signed with --sign.",
        discussion: """
            The bundle holds each spec's tasks and the fingerprint of the event catalog they were \
            checked against; an app loads it with manager.load(bundle:verifier:catalogs:) \
            (AnnaLiveTasks), which refuses unsigned bundles. --sign KEY signs it with a key made by \
            `anna-sign keygen`, through anna-sign beside this tool. Exit status: 0, or 2 for an \
            invalid spec, a spec without tasks or bad input.
            """
    )

    @Argument(help: "Tracking spec files or folders.")
    var paths: [String]

    @Option(help: "Where to write the bundle.")
    var output: String

    @Option(help: "A private key file written by `anna-sign keygen`: write a signed bundle.")
    var sign: String?

    func run() throws {
        let specs = try loadSpecs(paths, command: "bundle")
        guard specs.contains(where: { !$0.tasks.isEmpty }) else {
            FileHandle.standardError.write(Data("anna bundle: error: the specs have no tasks; add a tasks: section\n".utf8))
            throw ExitCode(2)
        }
        let payload = TaskBundlePayload.json(specs)
        guard let key = sign else {
            guard FileManager.default.createFile(atPath: output, contents: payload) else {
                FileHandle.standardError.write(Data("anna bundle: error: cannot write \(output)\n".utf8))
                throw ExitCode(2)
            }
            return
        }
        let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let signer = me.deletingLastPathComponent().appending(path: "anna-sign")
        guard FileManager.default.isExecutableFile(atPath: signer.path) else {
            FileHandle.standardError.write(Data("""
                anna bundle: error: anna-sign is not built beside this tool; run `swift build --product anna-sign` (or \
                `swift run anna-sign keygen …` first), then run this again. It needs swift-crypto, which comes with Anna's \
                LiveTasks trait: in an app's package, depend on Anna with traits: ["LiveTasks"]; in Anna's own folder, add \
                --traits LiveTasks to swift build

                """.utf8))
            throw ExitCode(2)
        }
        let unsigned = FileManager.default.temporaryDirectory.appending(path: "anna-bundle-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: unsigned) }
        try payload.write(to: unsigned)
        let process = Process()
        process.executableURL = signer
        process.arguments = ["sign", unsigned.path, "--key", key, "--output", output]
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus != 0 { throw ExitCode(process.terminationStatus) }
    }
}
