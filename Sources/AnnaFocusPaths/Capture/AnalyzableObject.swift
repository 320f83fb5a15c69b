/// An object whose analyzer gets sub analyzers from its properties by name: Anna's
/// `subAnalyzableKeys`.
///
/// ```swift
/// final class MasterViewController: UITableViewController, AnalyzableObject {   // AnnaUIKit
///     nonisolated static let subAnalyzableKeys: Set<String> = ["tableView"]
/// }
/// ```
/// `AnnaCapture.attachSubAnalyzers(of:)` (called by automatic capture at every
/// appearance, and by the headless screens at load) adds each property's analyzer as
/// a sub analyzer under its key, so the table above is `/master/tableView`.
public protocol AnalyzableObject: Analyzable {
    /// The names of the properties whose analyzers are sub analyzers.
    static var subAnalyzableKeys: Set<String> { get }
    /// The object under a key; the default reads the stored (or `lazy`, once created)
    /// property of that name by reflection (AnnaUIKit's, for `NSObject` subclasses, the
    /// Objective-C property through key-value coding). Override it for others.
    func subAnalyzable(forKey key: String) -> (any Analyzable)?
}

extension AnalyzableObject {
    /// Reads the stored property named `key` by reflection.
    public func subAnalyzable(forKey key: String) -> (any Analyzable)? {
        let lazyLabel = "$__lazy_storage_$_" + key
        var mirror: Mirror? = Mirror(reflecting: self)
        while let current = mirror {
            for child in current.children where child.label == key || child.label == lazyLabel {
                if let found = child.value as? any Analyzable { return found }
                // A lazy property's storage is an optional.
                if let optional = child.value as? (any Analyzable)? { return optional }
            }
            mirror = current.superclassMirror
        }
        return nil
    }
}
