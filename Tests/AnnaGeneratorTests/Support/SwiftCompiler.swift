import Foundation

/// Real compiles of generated code with the toolchain's `swiftc`, against an `Anna`
/// module built once from `Sources/Anna`.
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
        let (status, output) = try await Self.run(["-typecheck", "-swift-version", "6", "-warnings-as-errors", "-I", modules.path, file.path])
        return status == 0 ? nil : output
    }

    private func annaModule() async throws -> URL {
        if let moduleDirectory { return moduleDirectory }
        let directory = try Self.temporaryDirectory()
        let sources = Fixtures.packageRoot.appending(path: "Sources/Anna")
        let files = FileManager.default.enumerator(atPath: sources.path)?
            .compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
            .map { sources.appending(path: $0).path } ?? []
        let (status, output) = try await Self.run(
            ["-emit-module", "-module-name", "Anna", "-parse-as-library", "-swift-version", "6",
             "-emit-module-path", directory.appending(path: "Anna.swiftmodule").path] + files.sorted()
        )
        guard status == 0 else { throw Failure(description: "building the Anna module failed:\n\(output)") }
        moduleDirectory = directory
        return directory
    }

    private static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appending(path: "anna-compile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func run(_ arguments: [String], executable: String = "swiftc") async throws -> (Int32, String) {
        try await Task.detached {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [executable] + arguments
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: data, as: UTF8.self))
        }.value
    }
}
