import Foundation
import _AnnaGeneratorCore
@testable import _AnnaInspector

/// The fixtures of this test target.
enum Fixtures {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(path: "Fixtures", directoryHint: .isDirectory)
    static let store = folder.appending(path: "store.anna.yml").path
    /// How GitHub annotations name the spec: from the working directory, which the
    /// inspector's processes share with the tests.
    static var storeInAnnotations: String {
        let root = FileManager.default.currentDirectoryPath + "/"
        return store.hasPrefix(root) ? String(store.dropFirst(root.count)) : store
    }

    /// The plan of store.anna.yml, named as the tests expect.
    static func plan(file: String = "store.anna.yml") throws -> InspectionPlan {
        let bytes = try AnnaGenerator.read(store)
        let (spec, diagnostics) = AnnaGenerator().check(bytes, file: file)
        guard let spec else { throw SpecError(diagnostics: diagnostics) }
        return InspectionPlan(specs: [spec])
    }
}
