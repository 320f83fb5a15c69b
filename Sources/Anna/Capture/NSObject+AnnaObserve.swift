#if canImport(ObjectiveC)
import Foundation
import ObjectiveC

// Not compiled here (Linux has no Objective-C runtime): written against Foundation's
// documented `NSObject.observe(_:options:changeHandler:)`; see the README.
extension Analyzer {
    /// Records an ``FocusEvent/Name/updated`` event for `name` with the property's value
    /// now and whenever it changes, through key-value observing (`@objc dynamic`
    /// properties of `NSObject` subclasses, UIKit's own included). Equal values in a
    /// row are recorded once. Stops at ``detach()`` or when the object goes away.
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
        guard keep(handle) else { return }
        let last = LockedState<AnalyticsValue??>(nil)
        let box = KeyValueObservationBox()
        box.observation = observee.observe(keyPath, options: [.initial, .new]) { [weak self, weak box] object, _ in
            guard let self, !handle.isCancelled else {
                box?.observation?.invalidate()   // detached: stop at the first change after
                return
            }
            let value = convert(object[keyPath: keyPath])
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
    // Set once, on the thread that starts the observation, before any change arrives.
    var observation: NSKeyValueObservation?
}
#endif
