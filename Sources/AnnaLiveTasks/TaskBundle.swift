import Anna
import AnnaFocusPaths
import Foundation

/// A task bundle's payload: task sets as data, each with the fingerprint of the event
/// catalog it was checked against. `anna bundle` writes it; ``AnnaFocusPaths/Manager/load(bundle:verifier:catalogs:)``
/// reads it once its signature checks.
public struct TaskBundle: Sendable, Hashable, Decodable {
    /// The payload format this version reads.
    public static let format = 1
    /// The most tasks a bundle may hold.
    public static let maxTasks = 10_000

    /// One spec's tasks, as data: what `TaskSet.<name>` is once interpreted.
    public struct SetDescription: Sendable, Hashable, Decodable {
        /// The task set's name: the spec's namespace or file name, as `TaskSet.<name>`.
        public var name: String
        /// ``Anna/EventCatalog/fingerprint`` of the catalog the tasks were checked against.
        public var catalog: String
        /// The tasks.
        public var tasks: [TaskDescription]
    }

    /// The sets, in the order `anna bundle` wrote them.
    public var sets: [SetDescription]

    enum CodingKeys: String, CodingKey { case annaTasks, sets }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let format = try container.decode(Int.self, forKey: .annaTasks)
        guard format == Self.format else {
            throw DecodingError.dataCorruptedError(
                forKey: .annaTasks, in: container, debugDescription: "the payload has format \(format); this version of Anna reads format \(Self.format)")
        }
        sets = try container.decode([SetDescription].self, forKey: .sets)
    }

    /// Reads a payload.
    /// - Throws: ``TaskBundleError`` when it is not a task bundle payload, of another
    ///   format, or holds more than ``maxTasks`` tasks.
    public init(payload: Data) throws(TaskBundleError) {
        do {
            self = try JSONDecoder().decode(TaskBundle.self, from: payload)
        } catch let DecodingError.dataCorrupted(context) where context.codingPath.last?.stringValue == "annaTasks" {
            throw TaskBundleError(.unsupportedFormat, context.debugDescription)
        } catch {
            throw TaskBundleError(.malformed, "the signed payload is not a task bundle (\(Self.describe(error)))")
        }
        let count = sets.reduce(0) { $0 + $1.tasks.count }
        guard count <= Self.maxTasks else {
            throw TaskBundleError(.tooLarge, "the bundle holds \(count) tasks; at most \(Self.maxTasks) are accepted")
        }
    }

    /// A decoding error, by what and where, without the data.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "not JSON" }
        switch error {
        case .keyNotFound(let key, let context): return "'\(key.stringValue)' missing at \(path(context))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context): return "wrong kind of value at \(path(context))"
        case .dataCorrupted(let context): return context.codingPath.isEmpty ? "not JSON" : "bad value at \(path(context))"
        @unknown default: return "not readable"
        }
    }

    private static func path(_ context: DecodingError.Context) -> String {
        let path = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        return path.isEmpty ? "the top" : path
    }
}
