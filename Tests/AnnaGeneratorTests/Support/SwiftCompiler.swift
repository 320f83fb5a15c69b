import Foundation

/// Real compiles of generated code with the toolchain's `swiftc`, against the `Anna`
/// module SwiftPM built for this test run.
actor SwiftCompiler {
    static let shared = SwiftCompiler()

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private var moduleDirectory: URL?

    /// Type-checks one file in Swift 6 mode with warnings as errors.
    /// - Returns: The compiler's output when it fails, `nil` when the file compiles cleanly.
    func typecheck(_ source: String, named name: String) async throws -> String? {
        let modules = try await annaModule()
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appending(path: name)
        try Data(source.utf8).write(to: file)
        // Anna's module records its C dependency (zlib's shim), which clang finds by its module map.
        let zlib = Fixtures.packageRoot.appending(path: "Sources/CAnnaZlib/include")
        let (status, output) = try await Self.run([
            "-typecheck", "-swift-version", "6", "-warnings-as-errors", "-I", modules.path, "-I", zlib.path, file.path,
        ])
        return status == 0 ? nil : output
    }

    /// The directory holding `Anna.swiftmodule` and the modules it imports (swift-log's
    /// `Logging`), as SwiftPM built them for this test run: the test target depends on
    /// `Anna`, so they are built before any test runs.
    private func annaModule() async throws -> URL {
        if let moduleDirectory { return moduleDirectory }
        var candidates: [URL] = []
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(directory.appending(path: "Modules"))
            directory = directory.deletingLastPathComponent()
        }
        candidates.append(Fixtures.packageRoot.appending(path: ".build/debug/Modules"))
        for candidate in candidates
        where FileManager.default.fileExists(atPath: candidate.appending(path: "Anna.swiftmodule").path)
            && FileManager.default.fileExists(atPath: candidate.appending(path: "Logging.swiftmodule").path)
        {
            moduleDirectory = candidate
            return candidate
        }
        throw Failure(description: "no built Anna module next to the test runner; looked in \(candidates.map(\.path))")
    }

    private static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appending(path: "anna-compile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Runs a command to its end and returns its status and output. It waits on a
    /// thread of its own, never on one of Swift concurrency's: the pool has one thread
    /// per core, and a compiler that runs for minutes (kotlinc) on a pool thread starved
    /// every time-limited test beside it on a two-core machine.
    static func run(_ arguments: [String], executable: String = "swiftc") async throws -> (Int32, String) {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = [executable] + arguments
                let pipe = Pipe()
                process.standardOutput = pipe
                process.standardError = pipe
                do {
                    try process.run()
                } catch {
                    continuation.resume(throwing: error)
                    return
                }
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(returning: (process.terminationStatus, String(decoding: data, as: UTF8.self)))
            }
            thread.name = "anna-test-command"
            thread.start()
        }
    }
}
