import Foundation

/// The enum and object types a generated catalog's parameters name, and the event
/// descriptors built from them; generated code calls this.
///
/// A generated catalog describes each event in one statement of strings, whatever
/// its parameters:
///
/// ```swift
/// var types = CatalogTypes()
/// types.add(CategorySource.self, named: "CategorySource", enumValues: ["manual", "import", "sync"])
/// events.append(types.event("categoryAdded", parameters: ["categoryTitle", "String", "price", "Double?"],
///                           metadata: AnnaSpecMetadata.categoryAdded))
/// ```
///
/// so that the Swift type checker meets no generic call per parameter: the cost of
/// compiling a catalog grows with the plan's length, and stays a fraction of its
/// factories' (issue 51). Only the plan's enum and object types are Swift types here,
/// one statement each.
@_spi(Generated) public struct CatalogTypes: Sendable {
    /// A type a parameter may name: its check alone and in a list, and its values.
    private struct Entry: Sendable {
        var kind: ParameterDescriptor.Kind
        var single: any ValueCheck
        var list: any ValueCheck
        var enumValues: [String]
    }

    private var entries: [String: Entry] = [:]

    /// A catalog's types, none yet.
    public init() {}

    /// Adds a generated enum, named as the parameters' type strings name it.
    /// - Parameters:
    ///   - type: The enum.
    ///   - name: Its name in the parameters' type strings.
    ///   - enumValues: Its raw values, in spec order.
    public mutating func add<T: AnalyticsValueRepresentable & RawRepresentable>(
        _ type: T.Type, named name: String, enumValues: [String]
    ) where T.RawValue == String {
        entries[name] = Entry(kind: .enumeration, single: Conversion<T>(), list: Conversion<[T]>(), enumValues: enumValues)
    }

    /// Adds a generated object type, named as the parameters' type strings name it.
    /// - Parameters:
    ///   - type: The struct.
    ///   - name: Its name in the parameters' type strings.
    public mutating func add<T: AnalyticsValueRepresentable>(_ type: T.Type, named name: String) {
        entries[name] = Entry(kind: .object, single: Conversion<T>(), list: Conversion<[T]>(), enumValues: [])
    }

    /// An event's descriptor.
    /// - Parameters:
    ///   - name: The name sent to providers.
    ///   - parameters: Each parameter's wire name followed by its Swift type, in
    ///     spec order: `String`, `Int`, `Double`, `Bool`, `Date`, `URL`, `UUID` or a
    ///     name given to ``add(_:named:)``, in brackets for a list, with `?` after it
    ///     when optional (`"tags", "[String]?"`).
    ///   - metadata: What the typed factory attaches to the event.
    /// - Returns: The descriptor. A type name it does not know gives a parameter
    ///   that accepts no value, so a task reporting it fails with a message.
    public func event(_ name: String, parameters: [String], metadata: AnalyticsEvent.Metadata = .init()) -> EventDescriptor {
        var descriptors: [ParameterDescriptor] = []
        descriptors.reserveCapacity(parameters.count / 2)
        var index = parameters.startIndex
        while index + 1 < parameters.endIndex {
            descriptors.append(parameter(parameters[index], type: parameters[index + 1]))
            index += 2
        }
        return EventDescriptor(name: name, parameters: descriptors, metadata: metadata)
    }

    private func parameter(_ name: String, type: String) -> ParameterDescriptor {
        var element = Substring(type)
        let isOptional = element.hasSuffix("?")
        if isOptional { element = element.dropLast() }
        let isArray = element.hasPrefix("[") && element.hasSuffix("]")
        if isArray { element = element.dropFirst().dropLast() }
        let entry = entries[String(element)] ?? Self.scalar(element)
            ?? Entry(kind: .object, single: Unknown(typeName: String(element)), list: Unknown(typeName: "Array<\(element)>"), enumValues: [])
        return ParameterDescriptor(
            name: name, check: isArray ? entry.list : entry.single, kind: entry.kind,
            isArray: isArray, isOptional: isOptional, enumValues: entry.enumValues)
    }

    private static func scalar(_ name: Substring) -> Entry? {
        switch name {
        case "String": entry(String.self, .string)
        case "Int": entry(Int.self, .int)
        case "Double": entry(Double.self, .double)
        case "Bool": entry(Bool.self, .bool)
        case "Date": entry(Date.self, .date)
        case "URL": entry(URL.self, .url)
        case "UUID": entry(UUID.self, .uuid)
        default: nil
        }
    }

    private static func entry<T: AnalyticsValueRepresentable>(_ type: T.Type, _ kind: ParameterDescriptor.Kind) -> Entry {
        Entry(kind: kind, single: Conversion<T>(), list: Conversion<[T]>(), enumValues: [])
    }
}

/// A type the generated code did not add: accepts nothing.
private struct Unknown: ValueCheck {
    let typeName: String
    func accepts(_ value: AnalyticsValue) -> Bool { false }
    func converted(_ value: AnalyticsValue) -> AnalyticsValue? { nil }
}

/// What a generated catalog describes besides its events, each as the descriptor of
/// an event would: the screens, the traits `identify` and `group` take and the global
/// properties (each set one descriptor of optional parameters, with the PII keys and
/// constraints of its properties), and the property names of the plan's object types.
/// Generated code fills it, one statement per screen or set.
@_spi(Generated) public struct CatalogCalls: Sendable {
    /// The screens, by their names as sent.
    public var screens: [EventDescriptor] = []
    /// The user's traits (`traits:`), as optional parameters.
    public var traits: EventDescriptor?
    /// The group's traits (`groupTraits:`), as optional parameters.
    public var groupTraits: EventDescriptor?
    /// The global properties (`globals:`), as optional parameters.
    public var globals: EventDescriptor?
    /// The property names of every object type, as sent.
    public var objectProperties: [String] = []

    /// Nothing described.
    public init() {}
}
