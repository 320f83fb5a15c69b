import Foundation
import Testing
@testable import _AnnaGeneratorCore

/// The tools render a generated file into a 64 KiB buffer that drains into a
/// ``FileUpdate`` as it fills: these hold the drained text to the text held whole,
/// and the update to replacing the file exactly when its bytes change.
@Suite struct StreamedOutputTests {
    let directory = FileManager.default.temporaryDirectory.appending(path: "anna-stream-\(UUID().uuidString)")

    /// Pieces rich in what endWithOneNewline() looks at: runs of line breaks, `\r\n`,
    /// and text before them.
    static let pieces = ["\n", "\n\n\n", "\r\n", "\r", "x", "let a = 1", "é", "    ", "\n\r\n\n", "}\n\n"]

    @Test(arguments: 0..<40)
    func aDrainedTextIsTheTextHeldWhole(seed: Int) {
        var random = SplitMix64(seed: UInt64(seed))
        var drained: [UInt8] = []
        var streamed = SourceText(chunkSize: 16 + seed % 24) { drained.append(contentsOf: $0) }
        var whole = SourceText(capacity: 16)
        for step in 0..<(200 + seed * 7) {
            if step % 53 == 52 {  // as the renderer does between the file and its catalog
                streamed.endWithOneNewline()
                whole.endWithOneNewline()
                continue
            }
            let piece = Self.pieces[Int(random.next() % UInt64(Self.pieces.count))]
            let repeats = Int(random.next() % 3) == 0 ? 20 : 1  // some pieces longer than a chunk
            let text = String(repeating: piece, count: repeats)
            streamed += text
            whole += text
        }
        streamed.endWithOneNewline()
        whole.endWithOneNewline()
        streamed.drainAll()
        #expect(String(decoding: drained, as: UTF8.self) == whole.string, "seed \(seed)")
    }

    func write(_ text: String, to path: String, chunk: Int, writing: Bool = true) throws -> Bool {
        let update = FileUpdate(path: path, writing: writing)
        let bytes = Array(text.utf8)
        for start in stride(from: 0, to: bytes.count, by: chunk) {
            bytes[start..<min(start + chunk, bytes.count)].withUnsafeBufferPointer { update.write($0) }
        }
        return try update.commit()
    }

    func contents(_ path: String) throws -> String {
        String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
    }

    func inode(_ path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? NSNumber)?.intValue ?? -1
    }

    /// Only the file itself is left in its folder: no temporary file.
    func expectOnlyTheFile(_ path: String) throws {
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [(path as NSString).lastPathComponent])
    }

    @Test func aDifferenceInALaterChunkKeepsTheMatchedPart() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appending(path: "out.swift").path
        let text = (0..<3_000).map { "line \($0)\n" }.joined()
        #expect(try write(text, to: path, chunk: 1_000))
        let first = try inode(path)
        #expect(try !write(text, to: path, chunk: 777), "the same bytes in other chunks are no change")
        #expect(try inode(path) == first)
        for changedAt in [0, 999, 1_000, 5_432, text.utf8.count - 1] {
            var bytes = Array(text.utf8)
            bytes[changedAt] = UInt8(ascii: "#")
            let changed = String(decoding: bytes, as: UTF8.self)
            #expect(try write(changed, to: path, chunk: 1_000), "byte \(changedAt)")
            #expect(try contents(path) == changed, "byte \(changedAt)")
            #expect(try write(text, to: path, chunk: 1_000))
            #expect(try contents(path) == text)
        }
        #expect(try write(String(text.dropLast(7)), to: path, chunk: 1_000), "a shorter text")
        #expect(try contents(path) == String(text.dropLast(7)))
        #expect(try write(text, to: path, chunk: 1_000), "a longer text")
        #expect(try contents(path) == text)
        try expectOnlyTheFile(path)
    }

    /// `anna generate --check`: the update only compares, says whether the file is
    /// missing or differs, wherever the difference is, and writes nothing.
    @Test func comparingOnlyFindsEveryDifferenceAndWritesNothing() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appending(path: "out.swift").path
        let text = (0..<3_000).map { "line \($0)\n" }.joined()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        #expect(try write(text, to: path, chunk: 1_000, writing: false), "a missing file differs")
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try write(text, to: path, chunk: 1_000))
        let first = try inode(path)
        #expect(try !write(text, to: path, chunk: 333, writing: false))
        for changedAt in [0, 999, 1_000, 5_432, text.utf8.count - 1] {
            var bytes = Array(text.utf8)
            bytes[changedAt] = UInt8(ascii: "#")
            #expect(try write(String(decoding: bytes, as: UTF8.self), to: path, chunk: 1_000, writing: false), "byte \(changedAt)")
        }
        #expect(try write(String(text.dropLast(7)), to: path, chunk: 1_000, writing: false), "a shorter text")
        #expect(try write(text + "more\n", to: path, chunk: 1_000, writing: false), "a longer text")
        #expect(try contents(path) == text)
        #expect(try inode(path) == first)
        try expectOnlyTheFile(path)
    }

    @Test func aReplacedFileKeepsItsPermissions() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appending(path: "out.swift").path
        #expect(try write("let a = 1\n", to: path, chunk: 4))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        #expect(try write("let a = 2\n", to: path, chunk: 4))
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
        try expectOnlyTheFile(path)
    }

    @Test func aFailureNamesWhatFailedAndLeavesNothingBehind() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appending(path: "taken.swift"), withIntermediateDirectories: true)
        let onFolder = directory.appending(path: "taken.swift").path
        #expect {
            try write("let a = 1\n", to: onFolder, chunk: 4)
        } throws: { error in
            (error as? FileUpdate.Failure)?.description.hasPrefix("replacing \(onFolder): ") == true
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["taken.swift"])

        try Data("x".utf8).write(to: directory.appending(path: "file"))
        let underFile = directory.appending(path: "file/sub").path
        #expect {
            try write("let a = 1\n", to: underFile + "/out.swift", chunk: 4)
        } throws: { error in
            "\(error)" == "creating the folder \(directory.appending(path: "file").path): Not a directory"
        }
        #expect(try contents(directory.appending(path: "file").path) == "x")
    }

    @Test func missingFoldersAreCreated() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appending(path: "a/b//c/out.swift").path
        #expect(try write("let a = 1\n", to: path, chunk: 4))
        #expect(try contents(directory.appending(path: "a/b/c/out.swift").path) == "let a = 1\n")
    }

    @Test(arguments: [
        ("out.swift", "", "out.swift"), ("a/out.swift", "a", "out.swift"), ("/out.swift", "/", "out.swift"),
        ("/a/b/", "/a", "b"), ("a//b", "a", "b"), ("/", "/", ""),
    ])
    func pathsSplitIntoFolderAndName(path: String, directory: String, name: String) {
        #expect(FileUpdate.split(path) == (directory, name))
    }

    /// A spec whose generated file is several chunks long.
    static let largeSpec: String = {
        var spec = "anna: 1\nnamespace: Large\nevents:\n"
        for index in 0..<400 {
            spec += "  event\(index):\n    description: Event \(index).\n    parameters:\n      title: string\n      count: int?\n"
        }
        return spec
    }()

    @Test func generateWritesWhatItRendersWhole() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appending(path: "nested/Large.swift").path
        let generator = AnnaGenerator()
        let whole = try generator.generate(Array(Self.largeSpec.utf8), file: "large.anna.yml", outputPath: path).source
        #expect(whole.utf8.count > 3 * 64 * 1024, "the file spans several chunks")
        let first = try generator.generate(Array(Self.largeSpec.utf8), file: "large.anna.yml", writingTo: path)
        #expect(try first.written.get())
        #expect(try contents(path) == whole)
        let second = try generator.generate(Array(Self.largeSpec.utf8), file: "large.anna.yml", writingTo: path)
        #expect(try !second.written.get(), "unchanged")
        let renamed = Self.largeSpec.replacingOccurrences(of: "event399", with: "eventLast")
        #expect(try generator.generate(Array(renamed.utf8), file: "large.anna.yml", writingTo: path).written.get())
        #expect(try contents(path) == generator.generate(Array(renamed.utf8), file: "large.anna.yml", outputPath: path).source)
    }
}
