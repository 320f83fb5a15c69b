import _AnnaGeneratorCore

extension ClientModel {
    /// How one property's value reaches a payload, decided once for every language:
    /// the key, the guards and the conversion. A renderer only prints it.
    package struct Write: Sendable, Hashable {
        /// The property written.
        package var property: Property
        /// The key it is stored under: its wire name.
        package var key: String { property.wireName }
        /// Stored only when set.
        package var isOptional: Bool
        /// Stored only when the app lets PII through, and reported as left out otherwise.
        package var isPII: Bool { property.isPII }
        /// A list: the conversion applies to each element.
        package var isArray: Bool { property.isArray }
        /// What turns a value, or each element of a list, into its wire form.
        package var conversion: Conversion

        /// The write of a property, optional as the property says.
        package init(_ property: Property) {
            self.init(property, isOptional: property.isOptional)
        }

        /// The write of a property with its own guard for unset values: a setter taking
        /// one value at a time has none.
        package init(_ property: Property, isOptional: Bool) {
            self.property = property
            self.isOptional = isOptional
            self.conversion = Conversion(property)
        }
    }

    /// What a value becomes on the wire.
    package enum Conversion: Sendable, Hashable {
        /// Sent as it is: a bool, or a number or string with nothing to check.
        case none
        /// An enum case, as its wire value.
        case enumWire
        /// A date, as ISO 8601 in UTC with milliseconds.
        case iso8601
        /// A UUID, as its uppercase text.
        case uppercasedUUID
        /// A URL, as its absolute text.
        case absoluteURL
        /// An object, through its converter: the index in ``ClientModel/objects``.
        case object(Int)
        /// A number whose range is checked in development.
        case numberCheck(isInteger: Bool, min: Double?, max: Double?)
        /// A string whose length or pattern is checked in development.
        case textCheck(minLength: Int?, maxLength: Int?, pattern: String?)

        /// The conversion a property's type and constraints call for.
        init(_ property: Property) {
            let constraints = property.constraints
            switch property.type {
            case .string:
                self = property.hasRunTimeChecks
                    ? .textCheck(minLength: constraints.minLength, maxLength: constraints.maxLength, pattern: constraints.pattern)
                    : .none
            case .int, .double:
                self = property.hasRunTimeChecks
                    ? .numberCheck(isInteger: property.type == .int, min: constraints.min, max: constraints.max)
                    : .none
            case .bool: self = .none
            case .enumeration: self = .enumWire
            case .date: self = .iso8601
            case .url: self = .absoluteURL
            case .uuid: self = .uppercasedUUID
            case .object(let index): self = .object(index)
            }
        }

        /// The helper the conversion calls, if any.
        var helper: Helper? {
            switch self {
            case .none, .enumWire, .absoluteURL, .object: nil
            case .iso8601: .iso8601
            case .uppercasedUUID: .uppercasedUUID
            case .numberCheck: .numberCheck
            case .textCheck: .textCheck
            }
        }
    }
}

extension ClientModel {
    /// A function or declaration a generated file holds only when some call needs it,
    /// in every language (TypeScript's `noUnusedLocals` rejects the others).
    package enum Helper: Sendable, Hashable, CaseIterable {
        /// The checking context: what reports violations and whether PII is sent.
        case context
        /// The report of a violation.
        case report
        /// The range check.
        case numberCheck
        /// The length and pattern checks.
        case textCheck
        /// The report of a PII value left out.
        case leftOut
        /// A date as ISO 8601.
        case iso8601
        /// A UUID as its uppercase text.
        case uppercasedUUID
        /// The send of an event or a screen.
        case send
    }

    /// What a model's calls need, found by one walk over every value they send.
    package struct Helpers: Sendable, Hashable {
        /// The helpers some call needs.
        package var used: Set<Helper> = []
        /// Object types some call sends, directly or inside another object: each has a converter.
        package var objects: Set<Int> = []

        /// Whether some call needs `helper`.
        package func contains(_ helper: Helper) -> Bool {
            used.contains(helper)
        }
    }

    /// What the model's events, screens, traits and globals need.
    package var helpers: Helpers {
        var helpers = Helpers()
        let roots = events.map(\.properties) + screens.map(\.properties) + [traits, groupTraits, globals]
        if roots.contains(where: Self.needsContext) { helpers.used.insert(.context) }
        if !events.isEmpty || !screens.isEmpty { helpers.used.insert(.send) }
        var pending = roots.flatMap { $0 }
        while let property = pending.popLast() {
            let conversion = Conversion(property)
            if let helper = conversion.helper { helpers.used.insert(helper) }
            switch conversion {
            case .numberCheck, .textCheck: helpers.used.insert(.report)
            case .object(let index):
                if helpers.objects.insert(index).inserted { pending += objects[index].properties }
            default: break
            }
            if property.isPII { helpers.used.formUnion([.leftOut, .report]) }
        }
        return helpers
    }
}

extension ClientModel {
    /// Whether writing these properties checks or leaves out anything: a constraint
    /// checked at run time, PII, or an object, whose properties may have either.
    package static func needsContext(_ properties: [Property]) -> Bool {
        properties.contains { property in
            if case .object = property.type { return true }
            return property.isPII || property.hasRunTimeChecks
        }
    }
}

extension ClientModel.Property {
    /// Whether a value is checked at run time in development: a range, a length or a
    /// pattern on a number or a string. An enum's values are closed by its type.
    package var hasRunTimeChecks: Bool {
        switch type {
        case .string:
            constraints.minLength != nil || constraints.maxLength != nil || constraints.pattern != nil
        case .int, .double:
            constraints.min != nil || constraints.max != nil
        default:
            false
        }
    }
}
