import Foundation

/// The `anna` executable, built beside the test bundle by `swift test`, run as a
/// user runs it: a real process, its exit status, its standard output and error.
enum AnnaTool {
    /// Where `swift test` put the `anna` binary: beside the test bundle.
    static var executable: URL {
        let test = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? Bundle.main.executablePath ?? CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: test).deletingLastPathComponent()
        // On Apple platforms the bundle's executable sits in Contents/MacOS.
        while !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("anna").path),
            directory.path != "/"
        {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("anna")
    }

    /// The fixtures of this test target.
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .appending(path: "Fixtures", directoryHint: .isDirectory)

    /// The package's root folder.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `anna ARGUMENTS` in `directory` and waits for it.
    static func run(_ arguments: [String], in directory: URL? = nil, executable: URL = executable) throws -> Result {
        var attempt = 0
        while true {
            let launch = try Launch(arguments, in: directory, executable: executable)
            defer { launch.removeFiles() }
            do {
                try launch.process.run()
            } catch where isBusy(error) && attempt < busyRetries {
                attempt += 1
                usleep(50_000)
                continue
            }
            launch.process.waitUntilExit()
            return launch.result(status: launch.process.terminationStatus)
        }
    }

    /// How often a launch is tried again while the executable is busy.
    private static let busyRetries = 40

    /// Whether starting a process failed with ETXTBSY: a test copied the executable
    /// while another test's process was being spawned, which inherited the copy's
    /// open file until its `exec`; the file is free again a moment later.
    private static func isBusy(_ error: any Error) -> Bool {
        let error = error as NSError
        let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError
        return (error.domain == NSPOSIXErrorDomain && error.code == Int(ETXTBSY))
            || (underlying?.domain == NSPOSIXErrorDomain && underlying?.code == Int(ETXTBSY))
            || "\(error)".contains("Text file busy")
    }

    /// Runs a process as ``run(_:in:executable:)`` does, suspending until it ends
    /// instead of blocking a thread: a build of minutes in one test must not hold one
    /// of the few threads Swift Testing runs every other suite's tests on (two on two
    /// cores), where those tests' time limits keep running.
    static func runWithoutBlocking(_ arguments: [String], in directory: URL? = nil, executable: URL = executable) async throws -> Result {
        var attempt = 0
        while true {
            let launch = try Launch(arguments, in: directory, executable: executable)
            defer { launch.removeFiles() }
            let status: Int32
            do {
                status = try await withCheckedThrowingContinuation { continuation in
                    launch.process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
                    do {
                        try launch.process.run()
                    } catch {
                        launch.process.terminationHandler = nil
                        continuation.resume(throwing: error)
                    }
                }
            } catch where isBusy(error) && attempt < busyRetries {
                attempt += 1
                try await Task.sleep(for: .milliseconds(50))
                continue
            }
            return launch.result(status: status)
        }
    }

    /// A process whose standard output and error go to temporary files.
    private struct Launch {
        let process = Process()
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("anna-tool-\(UUID().uuidString).out")
        let err = FileManager.default.temporaryDirectory.appendingPathComponent("anna-tool-\(UUID().uuidString).err")

        init(_ arguments: [String], in directory: URL?, executable: URL) throws {
            process.executableURL = executable
            process.arguments = arguments
            if let directory { process.currentDirectoryURL = directory }
            _ = FileManager.default.createFile(atPath: out.path, contents: nil)
            _ = FileManager.default.createFile(atPath: err.path, contents: nil)
            do {
                process.standardOutput = try FileHandle(forWritingTo: out)
                process.standardError = try FileHandle(forWritingTo: err)
            } catch {
                removeFiles()
                throw error
            }
        }

        /// What the process printed, with its exit status.
        func result(status: Int32) -> Result {
            Result(
                status: status,
                stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
                stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
        }

        func removeFiles() {
            try? FileManager.default.removeItem(at: out)
            try? FileManager.default.removeItem(at: err)
        }
    }

    /// A new empty temporary folder.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("anna-tool-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
