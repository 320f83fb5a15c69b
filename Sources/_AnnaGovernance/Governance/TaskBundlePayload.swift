import AnnaRules
import Foundation
import _AnnaGeneratorCore

/// What `anna bundle` writes: the specs' tasks as data, each set with the
/// fingerprint of the event catalog it was checked against, for
/// `manager.load(bundle:verifier:catalogs:)` (AnnaLiveTasks) once signed.
///
/// ```json
/// {"annaTasks": 1, "sets": [{"name": "Shop", "catalog": "9f…", "tasks": [{"match": […], "report": "…", "with": {…}, "source": "shop.anna.yml:40:5"}]}]}
/// ```
package enum TaskBundlePayload {
    /// The payload format this version writes.
    package static let format = 1

    struct Payload: Encodable {
        var annaTasks: Int
        var sets: [Set]
    }

    struct Set: Encodable {
        var name: String
        var catalog: String
        var tasks: [Task]
    }

    struct Task: Encodable {
        var match: [String]
        var report: String
        var with: [String: TaskValue]
        var source: String
    }

    /// The payload's JSON for validated specs (one set per spec with tasks), with
    /// sorted keys, so the same specs give the same bytes.
    package static func json(_ specs: [TrackingSpec]) -> Data {
        let sets = specs.filter { !$0.tasks.isEmpty }.map { spec in
            let fileName = String(spec.file.split(separator: "/").last ?? Substring(spec.file))
            return Set(
                name: spec.namespace ?? spec.baseName,
                catalog: spec.catalogFingerprint,
                tasks: spec.tasks.map { task in
                    Task(
                        match: task.match, report: task.event.name,
                        with: Dictionary(uniqueKeysWithValues: task.arguments.map { ($0.parameter.name, spec.taskValue($0.expression)) }),
                        source: "\(fileName):\(task.location.line):\(task.location.column)")
                })
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(Payload(annaTasks: format, sets: sets))) ?? Data()
    }
}
