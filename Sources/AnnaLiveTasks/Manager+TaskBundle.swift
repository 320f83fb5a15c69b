import Anna
import AnnaFocusPaths
import Foundation

// Verifying needs swift-crypto: compiled with Anna's `LiveTasks` trait.
#if LiveTasks
extension Manager {
    /// Loads a signed task bundle: verifies its signature against the app's public
    /// key, checks each set against the app's compiled event catalog of the same name
    /// (the fingerprint must match) and builds every task with ``TaskInterpreter``;
    /// only when all of that succeeds are the sets replaced, each at once.
    ///
    /// ```swift
    /// let verifier = try TaskBundleVerifier(publicKeyBase64: "…")
    /// try manager.load(bundle: downloaded, verifier: verifier, catalogs: [.shop])
    /// ```
    /// A bundle can only change where and when declared events fire: it holds data,
    /// never code, and every event it reports goes through the typed factory.
    /// - Throws: ``TaskBundleError``; the running tasks stay.
    public func load(bundle data: Data, verifier: TaskBundleVerifier, catalogs: [EventCatalog]) throws(TaskBundleError) {
        let bundle = try TaskBundle(payload: try verifier.verifiedPayload(of: data))
        var sets: [TaskSet] = []
        for set in bundle.sets {
            guard let catalog = catalogs.first(where: { $0.name == set.name }) else {
                throw TaskBundleError(
                    .unknownTaskSet,
                    "the bundle's task set '\(set.name)' has no event catalog in the app; pass EventCatalog.<name> for it, or build the bundle from the app's specs")
            }
            guard catalog.fingerprint == set.catalog else {
                throw TaskBundleError(
                    .catalogMismatch,
                    "the bundle's '\(set.name)' tasks were checked against event catalog \(set.catalog), the app has \(catalog.fingerprint); build the bundle from the specs this app was built with")
            }
            do {
                sets.append(try TaskInterpreter.taskSet(named: set.name, from: set.tasks, catalog: catalog))
            } catch {
                throw TaskBundleError(.invalidTasks, "the bundle's '\(set.name)' tasks are not valid for this app:\n\(error)")
            }
        }
        for set in sets { replaceTasks(of: set) }
    }
}
#endif
