import Foundation
import Testing
@testable import _AnnaGeneratorCore

/// `AnnaGenerator.read` reads a regular file straight into bytes, and anything else
/// through `FileManager`; what cannot be read is an error at the file's start.
@Suite struct ReadSpecTests {
    @Test func readsFilesAndReportsWhatItCannotRead() throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "anna-read-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = "anna: 1\nevents:\n  opened: {}\n# é\n" + String(repeating: "#\n", count: 100_000)
        let path = directory.appending(path: "x.anna.yml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try AnnaGenerator.read(path) == Array(text.utf8))
        let empty = directory.appending(path: "empty.anna.yml").path
        try "".write(toFile: empty, atomically: true, encoding: .utf8)
        #expect(try AnnaGenerator.read(empty) == [])
        for unreadable in [directory.appending(path: "absent.anna.yml").path, directory.path] {
            #expect {
                _ = try AnnaGenerator.read(unreadable)
            } throws: { error in
                (error as? SpecError)?.diagnostics.first?.description.hasPrefix("\(unreadable):1:1: error: cannot read the file") == true
            }
        }
    }
}
