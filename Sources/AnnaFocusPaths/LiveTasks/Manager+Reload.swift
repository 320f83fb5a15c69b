@_spi(Generated) import Anna
import Dispatch
import Foundation

extension Manager {
    /// Reloads the tasks of the catalogs' specs from their files, through the
    /// interpreter, so edited `tasks:` take effect without a rebuild: for debug builds
    /// (the catalogs know their spec files only there). Compiled tasks remain the
    /// release path.
    ///
    /// ```swift
    /// #if DEBUG
    /// try manager.reloadTasks(catalogs: [.shop])
    /// #endif
    /// ```
    /// - Throws: ``TaskError`` for the first spec that cannot be read or whose
    ///   tasks are invalid; no set is replaced then.
    public func reloadTasks(catalogs: [EventCatalog]) throws(TaskError) {
        var sets: [TaskSet] = []
        for catalog in catalogs {
            guard let path = catalog.specPath else {
                throw .reloadFailed(path: "", message: "EventCatalog.\(catalog.name) does not know its spec file (a release build); reload tasks in debug builds")
            }
            sets.append(try Self.readTasks(at: path, catalog: catalog))
        }
        for set in sets { replaceTasks(of: set) }
    }

    /// Reloads one catalog's tasks from a spec file at another path.
    /// - Throws: ``TaskError``; the running tasks stay.
    public func reloadTasks(from specPath: String, catalog: EventCatalog) throws(TaskError) {
        replaceTasks(of: try Self.readTasks(at: specPath, catalog: catalog))
    }

    /// Watches the catalogs' spec files (debug builds) and reloads a catalog's tasks
    /// whenever its file changes; a spec that fails to reload goes to the delegate's
    /// ``ManagerDelegate/manager(_:didCatch:)`` as a ``TaskError`` and the running
    /// tasks stay. Keep the watcher; it stops when released or with ``SpecWatcher/stop()``.
    public func watchSpecs(
        catalogs: [EventCatalog], every interval: Duration = .milliseconds(500),
        onReload: (@Sendable (Result<String, TaskError>) -> Void)? = nil
    ) -> SpecWatcher {
        SpecWatcher(manager: self, specs: catalogs.compactMap { catalog in catalog.specPath.map { ($0, catalog) } }, interval: interval, onReload: onReload)
    }

    /// Watches one spec file for a catalog, as ``watchSpecs(catalogs:every:onReload:)``.
    public func watchSpec(
        at path: String, catalog: EventCatalog, every interval: Duration = .milliseconds(500),
        onReload: (@Sendable (Result<String, TaskError>) -> Void)? = nil
    ) -> SpecWatcher {
        SpecWatcher(manager: self, specs: [(path, catalog)], interval: interval, onReload: onReload)
    }

    /// The task set a spec file's `tasks:` describe, checked against the catalog.
    static func readTasks(at path: String, catalog: EventCatalog) throws(TaskError) -> TaskSet {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .reloadFailed(path: path, message: "\(path): error: cannot read the spec; check that it exists and is readable")
        }
        let result: SpecTasksReader.Output
        do {
            result = try SpecTasksReader.read(String(decoding: data, as: UTF8.self), file: path)
        } catch {
            throw .reloadFailed(path: path, message: error.description)
        }
        let baseName = String((path.split(separator: "/").last ?? "").split(separator: ".").first ?? "")
        let name = result.namespace ?? baseName
        guard name == catalog.name else {
            throw .reloadFailed(path: path, message: "\(path): error: the spec names its tasks '\(name)', the catalog is '\(catalog.name)'; a renamed namespace needs a rebuild")
        }
        do {
            return try TaskInterpreter.taskSet(named: catalog.name, from: result.tasks, catalog: catalog)
        } catch {
            // One `path:line:column: error:` line a problem, at the key it is about (the
            // name an unknown event is reported by, the parameter…), so Xcode and
            // terminals place it.
            let lines = error.problems.map { problem in
                let places = problem.task < result.places.count ? result.places[problem.task] : [:]
                let place = problem.key.flatMap { places[$0] ?? places[String($0.prefix { $0 != "." })] } ?? places["-"]
                let location = place.map { "\(path):\($0.line):\($0.column)" } ?? path
                return "\(location): error: the tasks were not reloaded: \(problem.message)"
            }
            throw .reloadFailed(path: path, message: lines.joined(separator: "\n"))
        }
    }
}

/// Watches spec files and reloads their tasks when they change (see
/// ``Manager/watchSpecs(catalogs:every:onReload:)``). It compares each file's
/// modification time and size on a timer, which also sees editors that save by
/// replacing the file.
public final class SpecWatcher: @unchecked Sendable {
    // @unchecked only for `timer`: Dispatch sources are thread-safe, but not marked
    // Sendable in swift-corelibs-libdispatch. Its state is queue-bound.
    private let timer: DispatchSourceTimer
    private let queue = DispatchQueue(label: "anna.spec-watcher")
    /// Each file's last stamp; the timer's handler, on `queue`, owns it.
    private let stamps: QueueBound<[String: String]>

    init(
        manager: Manager, specs: [(String, EventCatalog)], interval: Duration,
        onReload: (@Sendable (Result<String, TaskError>) -> Void)?
    ) {
        timer = DispatchSource.makeTimerSource(queue: queue)
        stamps = QueueBound(Dictionary(specs.map { ($0.0, Self.stamp($0.0)) }, uniquingKeysWith: { first, _ in first }), on: queue)
        let milliseconds = Int(interval.components.seconds * 1000 + interval.components.attoseconds / 1_000_000_000_000_000)
        timer.schedule(deadline: .now() + .milliseconds(milliseconds), repeating: .milliseconds(max(1, milliseconds)))
        timer.setEventHandler { [weak self, weak manager] in
            guard let self, let manager else { return }
            for (path, catalog) in specs {
                let stamp = Self.stamp(path)
                guard stamp != self.stamps.value[path] else { continue }
                self.stamps.value[path] = stamp
                do throws(TaskError) {
                    try manager.reloadTasks(from: path, catalog: catalog)
                    onReload?(.success(path))
                } catch {
                    manager.deliver([], errors: [error], sparks: [])
                    onReload?(.failure(error))
                }
            }
        }
        timer.resume()
    }

    /// The file's modification time and size, or a mark that it is missing.
    private static func stamp(_ path: String) -> String {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return "missing" }
        let date = (attributes[.modificationDate] as? Date)?.timeIntervalSinceReferenceDate ?? 0
        let size = (attributes[.size] as? NSNumber)?.intValue ?? -1
        return "\(date)/\(size)"
    }

    /// Stops watching.
    public func stop() {
        timer.cancel()
    }

    deinit {
        timer.cancel()
    }
}
