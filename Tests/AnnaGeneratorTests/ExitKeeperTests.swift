import Testing
import Foundation
@testable import _AnnaGeneratorCore

/// The tools leave their last spec's memory to the process's exit; every earlier
/// spec's is freed as before, so a run over many specs holds one at a time.
@Suite(.serialized) struct ExitKeeperTests {
    final class Node {}

    @Test func keepsOnlyTheLastValuesGiven() {
        weak var first: Node?
        weak var second: Node?
        do {
            let node = Node()
            first = node
            ExitKeeper.keep([node])
        }
        #expect(first != nil, "kept")
        do {
            let node = Node()
            second = node
            ExitKeeper.keep([node])
        }
        #expect(first == nil, "let go of once others are kept")
        #expect(second != nil)
        ExitKeeper.keep([])
        #expect(second == nil)
    }

    @Test func generateKeepsTheSpecOnlyWhenAsked() throws {
        let path = FileManager.default.temporaryDirectory.appending(path: "anna-keep-\(UUID().uuidString).swift").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let spec = Array("anna: 1\nevents:\n  opened:\n    description: Opened.\n".utf8)
        var generator = AnnaGenerator()
        ExitKeeper.keep([])
        #expect(try generator.generate(spec, file: "a.anna.yml", writingTo: path).written.get())
        #expect(ExitKeeper.count == 0)
        generator.keepsMemoryUntilExit = true
        #expect(try !generator.generate(spec, file: "a.anna.yml", writingTo: path).written.get())
        #expect(ExitKeeper.count == 3, "the tree, the spec and the model")
        ExitKeeper.keep([])
    }
}
