#if canImport(ObjectiveC)
import Anna
import AnnaFocusPaths
import Foundation
import ObjectiveC

// Not compiled on Linux (no Objective-C runtime there): written against Foundation's
// `NSObject.observe(_:options:changeHandler:)` as the SDK declares it; see the ApplePlatforms article.
extension Analyzer {
    /// Records an ``AnnaFocusPaths/FocusEvent/Name/updated`` event for `name` with the property's
    /// value now and whenever it changes, through key-value observing (`@objc dynamic`
    /// properties of `NSObject` subclasses, UIKit's own included). Equal values in a
    /// row are recorded once. Stops at ``AnnaFocusPaths/Analyzer/detach()`` or when the object
    /// goes away.
    ///
    /// ```swift
    /// analyzer.observe(player, for: \.rate, named: "rate")
    /// ```
    /// - Parameters:
    ///   - observee: The object; held weakly by the observation.
    ///   - keyPath: The property.
    ///   - name: The key path's name on the node, as tasks read it: `$value(rate)`.
    public func observe<Object: NSObject, Value: AnalyticsValueConvertible & Equatable>(
        _ observee: Object, for keyPath: KeyPath<Object, Value>, named name: String
    ) {
        observeKeyValue(observee, for: keyPath, named: name) { $0.analyticsValue }
    }

    /// Observes an optional property; `nil` clears the node's value.
    public func observe<Object: NSObject, Value: AnalyticsValueConvertible & Equatable>(
        _ observee: Object, for keyPath: KeyPath<Object, Value?>, named name: String
    ) {
        observeKeyValue(observee, for: keyPath, named: name) { $0?.analyticsValue }
    }

    private func observeKeyValue<Object: NSObject, Value: Equatable>(
        _ observee: Object, for keyPath: KeyPath<Object, Value>, named name: String,
        convert: @escaping @Sendable (Value) -> AnalyticsValue?
    ) {
        let handle = ObservationHandle()
        guard keepObservation(handle) else { return }
        let last = LockedState<AnalyticsValue??>(nil)
        let box = KeyValueObservationBox()
        // The handler reads the value from the change, not through the key path: a key
        // path is not Sendable, and the handler may run on any thread.
        box.observation = observee.observe(keyPath, options: [.initial, .new]) { [weak self, weak box] _, change in
            guard let self, !handle.isCancelled else {
                box?.observation?.invalidate()   // detached: stop at the first change after
                return
            }
            guard let newValue = change.newValue else { return }
            let value = convert(newValue)
            let changed = last.withLock { previous -> Bool in
                if case .some(let seen) = previous, seen == value { return false }
                previous = .some(value)
                return true
            }
            if changed { self.update(value, for: name) }
        }
        // The observation lives as long as the object it watches.
        objc_setAssociatedObject(observee, Unmanaged.passUnretained(box).toOpaque(), box, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
    }
}

/// Holds a key-value observation for the lifetime of the observed object.
private final class KeyValueObservationBox: @unchecked Sendable {
    // Set once, on the thread that starts the observation, before any change arrives
    // (`.initial` is delivered inside `observe`, before the assignment: the handler
    // only reads the box when detached, after the start returned).
    var observation: NSKeyValueObservation?
}
#endif
