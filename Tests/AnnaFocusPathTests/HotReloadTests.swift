import Anna
import AnnaFocusPaths
import AnnaTesting
import Foundation
import Testing

/// Tasks reloaded from a spec file edited on disk while a headless scenario runs.
@Suite(.timeLimit(.minutes(10))) struct HotReloadTests {
    static let spec = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(path: "live-tasks.anna.yml")

    /// The scenario: a row under a list under a screen, and its tap.
    struct Scene {
        let tree = PlainTree(tasks: [.liveTasks])
        let screen: Analyzer
        let row = Analyzer(owner: nil)
        let list = Analyzer(owner: nil)

        init() {
            // Kept: super analyzers are held weakly, and one that goes away frees its node.
            screen = tree.analyzer("screen")
            screen.setSubAnalyzer(list, for: "list")
            list.setSubAnalyzer(row, for: "row", index: 1)
        }

        /// The label the literal task reports for a tap now.
        func tapLabel() async -> AnalyticsValue? {
            let count = tree.delegate.results.count
            row.record(.targetAction)
            return await tree.delegate.waitForResults(count: count + 1).last?.parameters["label"]
        }
    }

    @Test func theGeneratedCatalogKnowsItsSpecInDebugBuilds() {
        #if DEBUG
        #expect(EventCatalog.liveTasks.specPath.map { URL(fileURLWithPath: $0).standardizedFileURL } == Self.spec.standardizedFileURL)
        #endif
    }

    @Test func editingTheSpecChangesWhatATaskReports() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "anna-reload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appending(path: "live-tasks.anna.yml")
        let original = try String(contentsOf: Self.spec, encoding: .utf8)
        try original.write(to: copy, atomically: true, encoding: .utf8)

        let scene = Scene()
        #expect(await scene.tapLabel() == .string("checkout"))

        let reloads = ReloadLog()
        let watcher = scene.tree.manager.watchSpec(at: copy.path, catalog: .liveTasks, every: .milliseconds(20)) { reloads.append($0) }
        defer { watcher.stop() }

        // An editor saves a new label (replacing the file, as many do).
        try original.replacingOccurrences(of: "label: checkout", with: "label: checked out")
            .write(to: copy, atomically: true, encoding: .utf8)
        #expect(await reloads.wait(count: 1) == ["ok"])
        #expect(await scene.tapLabel() == .string("checked out"))

        // A mistake: reported with its place, and the reloaded tasks stay.
        try original.replacingOccurrences(of: "label: checkout", with: "labl: checkout")
            .write(to: copy, atomically: true, encoding: .utf8)
        let log = await reloads.wait(count: 2)
        #expect(log.last == """
            \(copy.path):88:7: error: the tasks were not reloaded: event 'literalsSent' has no parameter 'labl'; did you mean 'label'?
            \(copy.path):87:5: error: the tasks were not reloaded: the task reporting 'literalsSent' gives no value for its required parameter 'label'; add it under 'with'
            """)
        #expect(await scene.tapLabel() == .string("checked out"))
        #expect(await scene.tree.delegate.waitForErrors(count: 1).first?.contains("has no parameter 'labl'") == true)

        // A manual reload from the fixed file.
        try original.write(to: copy, atomically: true, encoding: .utf8)
        try scene.tree.manager.reloadTasks(from: copy.path, catalog: .liveTasks)
        #expect(await scene.tapLabel() == .string("checkout"))
    }

    /// An unknown event is placed on the line and column of its name, as the generator
    /// places its errors, so Xcode and terminals can open it there.
    @Test func anUnknownEventIsLocatedAtItsName() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "anna-reload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appending(path: "live-tasks.anna.yml")
        try String(contentsOf: Self.spec, encoding: .utf8).replacingOccurrences(of: "    report: literalsSent\n", with: "    report: literalSent\n")
            .write(to: copy, atomically: true, encoding: .utf8)
        let manager = Manager(service: nil, tasks: [.liveTasks])
        #expect(throws: TaskError.reloadFailed(
            path: copy.path,
            message: "\(copy.path):86:13: error: the tasks were not reloaded: the task reports 'literalSent', which LiveTasks does not declare; did you mean 'literalsSent'?"
        )) {
            try manager.reloadTasks(from: copy.path, catalog: .liveTasks)
        }
    }

    @Test func aReloadThatCannotReadTheSpecSaysWhere() {
        let manager = Manager(service: nil, tasks: [.liveTasks])
        #expect(throws: TaskError.reloadFailed(path: "/nonexistent/x.anna.yml", message: "/nonexistent/x.anna.yml: error: cannot read the spec; check that it exists and is readable")) {
            try manager.reloadTasks(from: "/nonexistent/x.anna.yml", catalog: .liveTasks)
        }
    }
}

/// What the watcher reported, awaited by the test.
final class ReloadLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []

    func append(_ result: Result<String, TaskError>) {
        lock.withLock {
            switch result {
            case .success: entries.append("ok")
            case .failure(let error): entries.append(error.message)
            }
        }
    }

    func wait(count: Int) async -> [String] {
        for _ in 0..<500 {
            let current = lock.withLock { entries }
            if current.count >= count { return current }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return lock.withLock { entries }
    }
}
