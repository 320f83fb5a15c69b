extension Node {
    /// The index, or an error naming the node: for tasks whose parameter needs one.
    public func requiredIndex() throws(TaskError) -> Int {
        guard let index else { throw .taskFailed(path: path, message: "the node has no index") }
        return index
    }

    /// The section, or an error naming the node: for tasks whose parameter needs one.
    @_spi(Generated) public func requiredSection() throws(TaskError) -> Int {
        guard let section else { throw .taskFailed(path: path, message: "the node has no section") }
        return section
    }

    /// The ancestor `distance` levels up, or an error naming the node.
    @_spi(Generated) public func requiredAncestor(_ distance: Int) throws(TaskError) -> Node {
        guard let node = ancestor(distance) else {
            throw .taskFailed(path: path, message: "the node has no ancestor \(distance) levels up")
        }
        return node
    }

    /// The event that triggered the task, or an error outside a task.
    @_spi(Generated) public func requiredLatestEvent() throws(TaskError) -> FocusEvent {
        guard let event = latestEvent() else { throw .taskFailed(path: path, message: "no event was recorded on the node") }
        return event
    }

    /// The latest value for a key path as a type, `nil` when there is none.
    /// - Throws: ``TaskError`` when the value is of another type.
    public func value<Value: AnalyticsValueRepresentable>(_ keyPath: String, as type: Value.Type) throws(TaskError) -> Value? {
        guard let raw = latestValue(keyPath) else { return nil }
        guard let value = Value(analyticsValue: raw) else {
            // Names the key and the types, never the value: values may be personal data.
            throw .taskFailed(path: path, message: "value '\(keyPath)' is \(raw.typeDescription), not \(Value.self)")
        }
        return value
    }

    /// The latest value for a key path as a type.
    /// - Throws: ``TaskError`` when there is none or it is of another type.
    public func requiredValue<Value: AnalyticsValueRepresentable>(_ keyPath: String, as type: Value.Type) throws(TaskError) -> Value {
        guard let value = try value(keyPath, as: type) else {
            throw .taskFailed(path: path, message: "no value was recorded for '\(keyPath)'")
        }
        return value
    }
}
