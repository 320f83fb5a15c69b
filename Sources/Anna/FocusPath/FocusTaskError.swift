/// Why a task could not build its event from a node; sent to
/// ``ManagerDelegate/manager(_:didCatch:)`` with the task's pattern.
///
/// Like every error and log message of Anna's, it names paths, keys and types,
/// never recorded values, which may be personal data. An error a hand-written task
/// throws itself is named by its type only, for the same reason.
public struct FocusTaskError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The node's path.
    public var path: String
    /// What was missing or wrong.
    public var message: String
    /// The task's pattern and where it was declared, once the manager knows them.
    public var task: String?

    /// Creates an error.
    package init(path: String, message: String, task: String? = nil) {
        self.path = path
        self.message = message
        self.task = task
    }

    /// `task 'cell/did-select' (shop.anna.yml:40:5) on /master/tableView/cell: the node has no index`.
    public var description: String {
        let prefix = task.map { "task \($0) on " } ?? ""
        return "\(prefix)\(path): \(message)"
    }
}
