import AnnaRules
import Foundation

/// The events an app was compiled with, described for tasks built at run time: their
/// names, parameters and types, and a checked factory that builds an event from
/// run-time values through the typed factory, so a task that changes without a
/// rebuild can only report declared events with values of the declared types.
///
/// The generator writes one per spec, `EventCatalog.<namespace or file name>`:
///
/// ```swift
/// let event = try EventCatalog.shop.event(named: "productViewed", values: [
///     "productID": .string("p-1"), "category": .string("books"), "price": .double(9.5),
/// ])   // the same AnalyticsEvent as .productViewed(productID: "p-1", category: .books, price: 9.5)
/// ```
public struct EventCatalog: Sendable {
    /// Builds an event by its name through the typed factory; `nil` for an unknown name.
    @_spi(Generated) public typealias Factory = @Sendable (_ name: String, _ arguments: CatalogArguments) throws(EventCatalogError) -> AnalyticsEvent?

    /// The spec's namespace or file name.
    public let name: String
    /// A hash of the events' names, parameters, types, optionality and enum values:
    /// task bundles say which catalog they were checked against.
    public let fingerprint: String
    /// The events, in spec order.
    @_spi(Generated) public let events: [EventDescriptor]
    /// What the plan declares besides events: its screens, traits and global
    /// properties, and the property names of its object types. The web-content bridge
    /// (`AnnaWebContent`) checks pages' calls against them.
    @_spi(Generated) public let calls: CatalogCalls
    /// In debug builds, the spec file the catalog was generated from, for
    /// AnnaFocusPaths' `Manager.reloadTasks(catalogs:)`; `nil` in release builds. Found from where
    /// the generated file was compiled, so it is right on every machine that builds
    /// the app, generated code committed to the repository included.
    public let specPath: String?
    private let byName: [String: EventDescriptor]
    private let make: Factory?

    /// Creates a catalog whose events are built from their descriptors: each value
    /// converted to its parameter's Swift type and back, as the typed factory does,
    /// with the metadata the factory attaches. Generated code calls this, with
    /// descriptors from ``CatalogTypes/event(_:parameters:metadata:)``.
    @_spi(Generated) public init(
        name: String, fingerprint: String, events: [EventDescriptor], calls: CatalogCalls = CatalogCalls(), specPath: String? = nil
    ) {
        self.init(name: name, fingerprint: fingerprint, events: events, calls: calls, specPath: specPath, factory: nil)
    }

    /// Creates a catalog that builds its events through `make`; the code generated
    /// before issue 51 calls this.
    @_spi(Generated) public init(name: String, fingerprint: String, events: [EventDescriptor], specPath: String? = nil, make: @escaping Factory) {
        self.init(name: name, fingerprint: fingerprint, events: events, calls: CatalogCalls(), specPath: specPath, factory: make)
    }

    private init(
        name: String, fingerprint: String, events: [EventDescriptor], calls: CatalogCalls, specPath: String?, factory: Factory?
    ) {
        self.name = name
        self.fingerprint = fingerprint
        self.events = events
        self.calls = calls
        self.specPath = specPath
        self.byName = Dictionary(events.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.make = factory
    }

    /// The path of a spec given relative to the folder of the generated file that
    /// names it; generated code calls this with its `#filePath` in debug builds.
    /// `.` and `..` are taken away by their text, so messages show a plain path.
    /// - Parameters:
    ///   - relativePath: The spec's path from the generated file's folder, e.g. `../app.anna.yml`.
    ///   - generatedFile: The generated file's path when it was compiled (`#filePath`).
    /// - Returns: The spec's path, absolute when `generatedFile` is.
    @_spi(Generated) public static func specPath(_ relativePath: String, besideGeneratedFile generatedFile: String) -> String {
        SpecPath.resolve(relativePath, besideFile: generatedFile)
    }

    /// The description of an event, by its name.
    @_spi(Generated) public func descriptor(named name: String) -> EventDescriptor? { byName[name] }

    /// Builds an event from run-time values, checked against its declaration.
    /// - Throws: ``EventCatalogError`` for an unknown event (with the closest name),
    ///   an undeclared parameter, a missing required one, a value of another type or
    ///   a value outside an enum.
    public func event(named name: String, values: [String: AnalyticsValue]) throws(EventCatalogError) -> AnalyticsEvent {
        guard let descriptor = byName[name] else {
            throw EventCatalogError(event: name, parameter: nil, message: "'\(name)' is not an event of \(self.name)\(Self.hint(name, in: events.map(\.name)))")
        }
        for key in values.keys.sorted() where descriptor.parameter(named: key) == nil {
            throw EventCatalogError(
                event: name, parameter: key,
                message: "event '\(name)' has no parameter '\(key)'\(Self.hint(key, in: descriptor.parameters.map(\.name)))")
        }
        let arguments = CatalogArguments(event: descriptor, values: values)
        guard let make else { return try arguments.builtEvent() }
        guard let event = try make(name, arguments) else {
            throw EventCatalogError(event: name, parameter: nil, message: "the catalog has no factory for '\(name)'")
        }
        return event
    }

    /// Builds the values of a screen or a set of properties (``CatalogCalls``) as its
    /// typed factories would: each value converted through its Swift type, the
    /// metadata attached, under the descriptor's name.
    /// - Throws: ``EventCatalogError`` for an undeclared key, a missing required value
    ///   or a value of another type.
    package func built(_ descriptor: EventDescriptor, values: [String: AnalyticsValue]) throws(EventCatalogError) -> AnalyticsEvent {
        for key in values.keys.sorted() where descriptor.parameter(named: key) == nil {
            throw EventCatalogError(
                event: descriptor.name, parameter: key,
                message: "'\(descriptor.name)' has no property '\(key)'\(Self.hint(key, in: descriptor.parameters.map(\.name)))")
        }
        return try CatalogArguments(event: descriptor, values: values).builtEvent()
    }

    /// `; did you mean 'x'?` for a near name, or nothing.
    package static func hint(_ word: String, in candidates: [String]) -> String {
        Suggestion.closest(to: word, in: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }
}

/// An event as the catalog describes it.
@_spi(Generated) public struct EventDescriptor: Sendable {
    /// The name sent to providers, which tasks `report:`.
    public let name: String
    /// The parameters, in spec order.
    public let parameters: [ParameterDescriptor]
    /// What the typed factory attaches to the event: its consent, PII keys and constraints.
    public let metadata: AnalyticsEvent.Metadata

    /// Creates a description; generated code calls this.
    /// - Parameters:
    ///   - name: The name sent to providers.
    ///   - parameters: The parameters, in spec order.
    ///   - metadata: What the typed factory attaches to the event.
    public init(name: String, parameters: [ParameterDescriptor], metadata: AnalyticsEvent.Metadata = .init()) {
        self.name = name
        self.parameters = parameters
        self.metadata = metadata
    }

    /// A parameter, by its name.
    public func parameter(named name: String) -> ParameterDescriptor? {
        parameters.first { $0.name == name }
    }
}

/// A parameter as the catalog describes it, with its Swift type's own check.
@_spi(Generated) public struct ParameterDescriptor: Sendable {
    /// What kind of value the parameter takes.
    public enum Kind: String, Sendable, Hashable {
        case string, int, double, bool, date, url, uuid
        /// A string-backed enum: one of ``ParameterDescriptor/enumValues``.
        case enumeration = "enum"
        /// A value of an object type: a generated struct, sent as an object.
        case object
    }

    /// The key sent to providers.
    public let name: String
    /// The element's kind.
    public let kind: Kind
    /// `[T]`.
    public let isArray: Bool
    /// `T?`: may be left out.
    public let isOptional: Bool
    /// An enum's raw values.
    public let enumValues: [String]
    /// The Swift type's name, as errors show it: `String`, `Int`, `ProductCategory`.
    public let typeName: String
    private let check: any ValueCheck

    /// Describes a parameter of Swift type `T`; generated code calls this.
    public init<T: AnalyticsValueRepresentable>(
        name: String, type: T.Type, kind: Kind, isArray: Bool = false, isOptional: Bool = false, enumValues: [String] = []
    ) {
        self.init(name: name, check: Conversion<T>(), kind: kind, isArray: isArray, isOptional: isOptional, enumValues: enumValues)
    }

    init(name: String, check: any ValueCheck, kind: Kind, isArray: Bool, isOptional: Bool, enumValues: [String]) {
        self.name = name
        self.kind = kind
        self.isArray = isArray
        self.isOptional = isOptional
        self.enumValues = enumValues
        self.typeName = check.typeName
        self.check = check
    }

    /// Whether a value converts to the parameter's Swift type.
    public func accepts(_ value: AnalyticsValue) -> Bool { check.accepts(value) }

    /// The value converted to the parameter's Swift type and back, as the typed
    /// factory sends it (an int given for a double becomes a double, an object keeps
    /// its declared properties); `nil` when it does not convert.
    func converted(_ value: AnalyticsValue) -> AnalyticsValue? { check.converted(value) }

    /// `int`, `[string]?`, `ProductCategory`, `[Product]`: the type as errors show it.
    public var typeDescription: String {
        var text = kind == .enumeration || kind == .object ? typeName : kind.rawValue
        if isArray {
            // The Swift type of an array parameter is the array: `Array<Product>`.
            if text.hasPrefix("Array<"), text.hasSuffix(">") { text = String(text.dropFirst(6).dropLast()) }
            text = "[\(text)]"
        }
        return isOptional ? text + "?" : text
    }
}

/// The values a task gives an event's factory, read by generated code as typed
/// arguments.
@_spi(Generated) public struct CatalogArguments: Sendable {
    let event: EventDescriptor
    let values: [String: AnalyticsValue]

    /// A required argument as its Swift type.
    /// - Throws: ``EventCatalogError`` when it is missing or of another type.
    public func required<T: AnalyticsValueRepresentable>(_ key: String, as type: T.Type) throws(EventCatalogError) -> T {
        guard let value = try optional(key, as: type) else {
            throw EventCatalogError(event: event.name, parameter: key, message: "event '\(event.name)' needs a value for its required parameter '\(key)'")
        }
        return value
    }

    /// An optional argument as its Swift type; `nil` when left out.
    /// - Throws: ``EventCatalogError`` when it is of another type.
    public func optional<T: AnalyticsValueRepresentable>(_ key: String, as type: T.Type) throws(EventCatalogError) -> T? {
        guard let raw = values[key] else { return nil }
        guard let value = T(analyticsValue: raw) else {
            throw mismatch(key, expected: event.parameter(named: key)?.typeDescription ?? String(describing: T.self), raw)
        }
        return value
    }

    /// The event as its typed factory builds it: every value converted through its
    /// parameter's Swift type, the factory's metadata attached. Arguments are read in
    /// the factory's order (required ones first, then optional ones, each in spec
    /// order), so the first problem reported is the one the factory would meet.
    /// - Throws: ``EventCatalogError`` for a missing required argument or a value of
    ///   another type.
    func builtEvent() throws(EventCatalogError) -> AnalyticsEvent {
        var parameters: [String: AnalyticsValue] = [:]
        parameters.reserveCapacity(values.count)
        for required in [true, false] {
            for parameter in event.parameters where parameter.isOptional != required {
                guard let raw = values[parameter.name] else {
                    guard !required else {
                        throw EventCatalogError(
                            event: event.name, parameter: parameter.name,
                            message: "event '\(event.name)' needs a value for its required parameter '\(parameter.name)'")
                    }
                    continue
                }
                guard let value = parameter.converted(raw) else {
                    throw mismatch(parameter.name, expected: parameter.typeDescription, raw)
                }
                parameters[parameter.name] = value
            }
        }
        return AnalyticsEvent(name: event.name, parameters: parameters, metadata: event.metadata)
    }

    /// Names the types, never the value: values may be personal data.
    private func mismatch(_ key: String, expected: String, _ raw: AnalyticsValue) -> EventCatalogError {
        EventCatalogError(event: event.name, parameter: key, message: "parameter '\(key)' of event '\(event.name)' takes \(expected), not \(raw.typeDescription)")
    }
}

/// Why the catalog refused to build an event. Names the event, the parameter and the
/// types, never a value.
public struct EventCatalogError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The event asked for.
    public var event: String
    /// The parameter concerned, if one is.
    public var parameter: String?
    /// What is wrong and what to do.
    public var message: String

    /// Creates an error.
    package init(event: String, parameter: String?, message: String) {
        self.event = event
        self.parameter = parameter
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

/// Whether a value converts to a parameter's Swift type.
protocol ValueCheck: Sendable {
    /// The Swift type's name: `String`, `Array<Product>`.
    var typeName: String { get }
    func accepts(_ value: AnalyticsValue) -> Bool
    /// The value through the Swift type and back; `nil` when it does not convert.
    func converted(_ value: AnalyticsValue) -> AnalyticsValue?
}

/// Whether a value converts to `T`. Holds no state, only the type.
struct Conversion<T: AnalyticsValueRepresentable>: ValueCheck {
    var typeName: String { String(describing: T.self) }
    func accepts(_ value: AnalyticsValue) -> Bool { T(analyticsValue: value) != nil }
    func converted(_ value: AnalyticsValue) -> AnalyticsValue? { T(analyticsValue: value)?.analyticsValue }
}
