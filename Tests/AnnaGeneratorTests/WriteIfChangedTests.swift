import Foundation
import Testing
@testable import _AnnaGeneratorCore

/// `writeIfChanged` compares the new contents with the file in place; these hold
/// it to writing exactly when the bytes differ.
@Suite struct WriteIfChangedTests {
    let directory = FileManager.default.temporaryDirectory.appending(path: "anna-write-\(UUID().uuidString)")

    func read(_ path: String) throws -> String {
        String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
    }

    func inode(_ path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? NSNumber)?.intValue ?? -1
    }

    @Test func writesOnlyWhenTheBytesDiffer() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appending(path: "nested/out.anna.swift").path
        #expect(try AnnaGenerator.writeIfChanged("let a = 1\n", to: path), "a missing file and folder are created")
        #expect(try read(path) == "let a = 1\n")
        let first = try inode(path)
        #expect(try !AnnaGenerator.writeIfChanged("let a = 1\n", to: path))
        #expect(try inode(path) == first, "an unchanged file is left alone")
        #expect(try AnnaGenerator.writeIfChanged("let a = 2\n", to: path), "same length, different bytes")
        #expect(try read(path) == "let a = 2\n")
        #expect(try AnnaGenerator.writeIfChanged("let a = 2\n// é\n", to: path))
        #expect(try read(path) == "let a = 2\n// é\n")
        #expect(try AnnaGenerator.writeIfChanged("", to: path))
        #expect(try read(path) == "")
        #expect(try !AnnaGenerator.writeIfChanged("", to: path))
    }

    @Test func aLargeUnchangedFileIsNotRewritten() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appending(path: "large.anna.swift").path
        let text = String(repeating: "    static var x: Int { 1 }\n", count: 40_000)
        #expect(try AnnaGenerator.writeIfChanged(text, to: path))
        let first = try inode(path)
        #expect(try !AnnaGenerator.writeIfChanged(text, to: path))
        #expect(try inode(path) == first)
        #expect(try AnnaGenerator.writeIfChanged(text.dropLast() + "\u{20}", to: path), "the last byte differs")
        // The file is compared in chunks of 64 KiB: a difference on either side of a
        // chunk's end, and a file that is the new text and more.
        for offset in [65_535, 65_536] {
            var bytes = Array(text.utf8)
            #expect(try AnnaGenerator.writeIfChanged(text, to: path))
            bytes[offset] = UInt8(ascii: "#")
            #expect(try AnnaGenerator.writeIfChanged(String(decoding: bytes, as: UTF8.self), to: path), "byte \(offset) differs")
            #expect(try Array(read(path).utf8)[offset] == UInt8(ascii: "#"))
        }
        #expect(try AnnaGenerator.writeIfChanged(text + "// more\n", to: path))
        #expect(try AnnaGenerator.writeIfChanged(text, to: path), "the file held the text and more")
        #expect(try read(path) == text)
    }
}
