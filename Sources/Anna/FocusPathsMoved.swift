// Focus paths are a module of their own, AnnaFocusPaths. An app that used `Manager` with
// `import Anna` alone gets an error that says what to import. A file that imports
// AnnaFocusPaths sees its `Manager`: a module's declarations shadow those of the modules
// it imports, so there is no ambiguity.

/// Moved to AnnaFocusPaths: `import AnnaFocusPaths` (and depend on its product) for the
/// focus-path manager.
@available(*, unavailable, message: "Manager is in AnnaFocusPaths now: add the AnnaFocusPaths product and import AnnaFocusPaths")
public struct Manager {
    /// Moved to AnnaFocusPaths.
    /// - Parameters:
    ///   - service: The service the manager reports through.
    ///   - tasks: The task sets to run.
    @available(*, unavailable, message: "Manager is in AnnaFocusPaths now: add the AnnaFocusPaths product and import AnnaFocusPaths")
    public init(service: AnalyticsService?, tasks: [Never] = []) {}
}
