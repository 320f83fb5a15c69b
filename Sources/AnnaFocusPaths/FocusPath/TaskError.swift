/// Why a focus task or live tasks failed: a task that could not build its event from
/// a node (sent to ``ManagerDelegate/manager(_:didCatch:)`` with the task's pattern),
/// task descriptions that do not fit a catalog (every problem of every task, so one
/// round fixes them), or a spec whose tasks could not be reloaded. The running tasks
/// stay in every case.
///
/// A struct over a private code, as ``AnalyticsError`` is, so that a later version
/// can add kinds of error without breaking a `switch` in app code: switch over
/// ``code`` with a `default`, or compare it, and read what the kind carries from
/// ``path``, ``message``, ``task`` and ``problems``.
///
/// Like every error and log message of Anna's, it names paths, keys and types,
/// never recorded values, which may be personal data. An error a hand-written task
/// throws itself is named by its type only, for the same reason.
public struct TaskError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of a ``TaskError``.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case taskFailed, invalidTasks, reloadFailed
        }

        private let base: Base

        /// A task could not build its event from a node (a missing index, section,
        /// ancestor or value, or a value of another type): ``path`` is the node's,
        /// ``task`` the task's pattern and source once the manager knows them.
        public static let taskFailed = Code(base: .taskFailed)
        /// Task descriptions were refused: ``problems``, in task order.
        public static let invalidTasks = Code(base: .invalidTasks)
        /// A spec's tasks could not be reloaded: ``path`` is the spec file's,
        /// ``message`` has one `path:line:column: error:` line a problem.
        public static let reloadFailed = Code(base: .reloadFailed)

        /// The kind's name, e.g. `reloadFailed`.
        public var description: String { base.rawValue }
    }

    /// One problem of one task description.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// The task's position in the list, from 0.
        public var task: Int
        /// The task's `source`, if it has one.
        public var source: String?
        /// What is wrong and what to do.
        public var message: String
        /// The key of the task the problem is in: `match`, `report`, `with` or
        /// `with.<parameter>`; hot reload places the error on that key's line.
        public var key: String?

        /// `task 2 (shop.anna.yml:40:5): message`.
        public var description: String {
            "task \(task)\(source.map { " (\($0))" } ?? ""): \(message)"
        }
    }

    /// The kind of error.
    public let code: Code
    /// The node's path for ``Code/taskFailed``, the spec file's for
    /// ``Code/reloadFailed``; empty for ``Code/invalidTasks``.
    public var path: String
    /// What was missing or wrong, and what to do; for ``Code/invalidTasks`` the
    /// problems, one a line.
    public var message: String
    /// The task's pattern and where it was declared, for ``Code/taskFailed`` once the
    /// manager knows them.
    public var task: String?
    /// Every problem of every task, for ``Code/invalidTasks``; empty otherwise.
    public var problems: [Problem]

    private init(code: Code, path: String, message: String, task: String? = nil, problems: [Problem] = []) {
        self.code = code
        self.path = path
        self.message = message
        self.task = task
        self.problems = problems
    }

    /// A task could not build its event from the node at `path`.
    package static func taskFailed(path: String, message: String, task: String? = nil) -> TaskError {
        TaskError(code: .taskFailed, path: path, message: message, task: task)
    }

    /// Task descriptions were refused.
    package static func invalidTasks(_ problems: [Problem]) -> TaskError {
        TaskError(code: .invalidTasks, path: "", message: problems.map(\.description).joined(separator: "\n"), problems: problems)
    }

    /// The tasks of the spec at `path` could not be reloaded.
    package static func reloadFailed(path: String, message: String) -> TaskError {
        TaskError(code: .reloadFailed, path: path, message: message)
    }

    /// For ``Code/taskFailed``, `task 'cell/did-select' (shop.anna.yml:40:5) on
    /// /master/tableView/cell: the node has no index`; otherwise ``message``, which
    /// names the file or the tasks.
    public var description: String {
        guard code == .taskFailed else { return message }
        let prefix = task.map { "task \($0) on " } ?? ""
        return "\(prefix)\(path): \(message)"
    }
}
