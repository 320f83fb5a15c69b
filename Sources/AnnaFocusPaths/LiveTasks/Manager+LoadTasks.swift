@_spi(Generated) import Anna

extension Manager {
    /// Builds tasks from descriptions, checked against the app's compiled event
    /// catalog, and replaces the catalog's task set (named like the spec, as the
    /// generated `TaskSet` is) with them.
    ///
    /// ```swift
    /// try manager.loadTasks(descriptions, catalog: .shop)
    /// ```
    /// - Throws: ``TaskError`` with every problem; the running tasks stay.
    public func loadTasks(_ descriptions: [TaskDescription], catalog: EventCatalog) throws(TaskError) {
        replaceTasks(of: try TaskInterpreter.taskSet(named: catalog.name, from: descriptions, catalog: catalog))
    }
}
