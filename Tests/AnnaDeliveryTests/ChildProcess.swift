import Foundation

/// `AnnaDeliveryChild`, built beside the test bundle, run with its output in a file
/// so that nothing it printed before a SIGKILL is lost.
final class ChildProcess {
    let process = Process()
    private let output: URL

    static var executable: URL {
        let test = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? Bundle.main.executablePath ?? CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: test).deletingLastPathComponent()
        // On Apple platforms the bundle's executable sits in Contents/MacOS.
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("AnnaDeliveryChild").path),
            directory.path != "/"
        {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("AnnaDeliveryChild")
    }

    init(_ arguments: [String]) throws {
        output = FileManager.default.temporaryDirectory.appendingPathComponent("anna-child-\(UUID().uuidString).out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        process.executableURL = Self.executable
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = process.standardOutput
        try process.run()
    }

    func kill() {
        if process.isRunning { _ = Foundation.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Waits for the process to exit by itself, at most `seconds`; kills it after that.
    func wait(seconds: Double) async -> Bool {
        let exited = await eventually(within: seconds) { !process.isRunning }
        if !exited { kill() } else { process.waitUntilExit() }
        return exited
    }

    var lines: [String] {
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    deinit {
        if process.isRunning { _ = Foundation.kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: output)
    }
}
