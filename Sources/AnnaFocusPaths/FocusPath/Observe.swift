#if canImport(Observation)
import Observation

// The Observation framework is iOS 17, macOS 14, tvOS 17, watchOS 10 and visionOS 1 API,
// above the package's minimums: `#if canImport` only says the SDK has it, so every
// declaration that names it carries the availability too.

extension Analyzer {
    /// Records an ``FocusEvent/Name/updated`` event for `name` with the property's value
    /// now and whenever it changes, through the Observation framework (`@Observable`
    /// models). Equal values in a row are recorded once. Stops at ``detach()``.
    ///
    /// ```swift
    /// analyzer.observe(cart, for: \.itemCount, named: "itemCount")
    /// ```
    /// - Parameters:
    ///   - observee: The model; held weakly.
    ///   - keyPath: The property.
    ///   - name: The key path's name on the node, as tasks read it: `$value(itemCount)`.
    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    @MainActor
    public func observe<Object: Observable & AnyObject, Value: AnalyticsValueConvertible & Equatable>(
        _ observee: Object, for keyPath: KeyPath<Object, Value>, named name: String
    ) {
        observe(observee, for: keyPath, named: name) { $0.analyticsValue }
    }

    /// Observes an optional property; `nil` clears the node's value.
    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    @MainActor
    public func observe<Object: Observable & AnyObject, Value: AnalyticsValueConvertible & Equatable>(
        _ observee: Object, for keyPath: KeyPath<Object, Value?>, named name: String
    ) {
        observe(observee, for: keyPath, named: name) { $0?.analyticsValue }
    }

    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    @MainActor
    private func observe<Object: Observable & AnyObject, Value: Equatable>(
        _ observee: Object, for keyPath: KeyPath<Object, Value>, named name: String,
        convert: @escaping (Value) -> AnalyticsValue?
    ) {
        let handle = ObservationHandle()
        guard keep(handle) else { return }
        let tracker = ObservationTracker(analyzer: self, observee: observee, keyPath: keyPath, name: name, handle: handle, convert: convert)
        tracker.track()
    }
}

/// Re-reads the property after each change, on the main actor, and records it when it differs.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
@MainActor
private final class ObservationTracker<Object: Observable & AnyObject, Value: Equatable> {
    weak var analyzer: Analyzer?
    weak var observee: Object?
    let keyPath: KeyPath<Object, Value>
    let name: String
    let handle: ObservationHandle
    let convert: (Value) -> AnalyticsValue?
    var last: Value?

    init(analyzer: Analyzer, observee: Object, keyPath: KeyPath<Object, Value>, name: String,
         handle: ObservationHandle, convert: @escaping (Value) -> AnalyticsValue?) {
        self.analyzer = analyzer
        self.observee = observee
        self.keyPath = keyPath
        self.name = name
        self.handle = handle
        self.convert = convert
    }

    func track() {
        guard !handle.isCancelled, let observee, let analyzer else { return }
        let keyPath = self.keyPath
        let value = withObservationTracking {
            observee[keyPath: keyPath]
        } onChange: {
            // Called before the new value is stored; read it on the main actor's next
            // turn. The closure keeps the tracker alive for as long as the model does.
            Task { @MainActor in self.track() }
        }
        guard last != value else { return }
        last = value
        analyzer.update(convert(value), for: name)
    }
}
#endif
