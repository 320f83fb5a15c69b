import AnnaRules

extension SpecValidationPass {
    static let eventKeys = ["description", "version", "consent", "deprecated", "parameters"]
    static let screenKeys = ["name", "description", "version", "consent", "deprecated", "parameters"]
    static let parameterKeys = ["type", "description", "min", "max", "minLength", "maxLength", "pattern", "enum", "pii", "dataType"]

    /// How long, in bytes, ``SwiftNaming/reservedParameterNames`` are: a name of
    /// another length is none of them, and is not hashed to find out.
    static let reservedParameterNameLengths: ClosedRange<Int> = {
        let lengths = SwiftNaming.reservedParameterNames.map(\.utf8.count)
        return (lengths.min() ?? 0)...(lengths.max() ?? 0)
    }()

    /// `events:`, or `screens:` when `kind` is `.screen`: the two are declared alike.
    mutating func events(_ node: YAMLNode, kind: ParameterKind = .event) -> [TrackingSpec.Event] {
        let word = kind.word
        guard let pairs = context.pairs(of: node, expected: "'\(kind.section)'") else { return [] }
        var events: [TrackingSpec.Event] = []
        events.reserveCapacity(pairs.count)
        var swiftNames = NameTable(capacity: pairs.count)
        var wireNames = NameTable(capacity: pairs.count)
        for pair in pairs {
            guard SwiftNaming.isValidName(pair.key) else {
                context.error("\(word) name '\(pair.key)' cannot become a Swift name; use ASCII letters, digits, spaces, '_', '-' or '.', starting with a letter", at: pair.keyLocation)
                continue
            }
            let swiftName = SwiftNaming.lowerCamelCase(pair.key)
            let factoryType = kind.factoryType
            if SwiftNaming.reservedEventNames.contains(swiftName) {
                context.error("\(word) '\(pair.key)' would be the factory \(factoryType).\(swiftName), a name \(factoryType) already has; rename it, e.g. '\(swiftName)\(kind == .screen ? "Screen" : "Event")'", at: pair.keyLocation)
                continue
            }
            if let (other, location) = swiftNames[swiftName] {
                context.error("\(word)s '\(other)' (line \(location.line), column \(location.column)) and '\(pair.key)' both become '\(swiftName)' in Swift; rename one of them", at: pair.keyLocation)
                continue
            }
            swiftNames.take(swiftName, by: (pair.key, pair.keyLocation))
            guard let event = event(named: pair.key, swiftName: swiftName, node: pair.value, at: pair.keyLocation, kind: kind) else { continue }
            // Screens may rename themselves on the wire, so two can end up with one name.
            if let (other, location) = wireNames[event.name] {
                context.error("screens '\(other)' (line \(location.line), column \(location.column)) and '\(pair.key)' are both sent as '\(event.name)'; give one of them another 'name:'", at: pair.keyLocation)
                continue
            }
            wireNames.take(event.name, by: (pair.key, pair.keyLocation))
            events.append(event)
        }
        return events
    }

    private mutating func event(
        named name: String, swiftName: String, node: YAMLNode, at location: SourceLocation, kind: ParameterKind
    ) -> TrackingSpec.Event? {
        var event = TrackingSpec.Event(
            name: name, swiftName: swiftName, description: nil, consent: "analytics",
            deprecationMessage: nil, parameters: [], location: location
        )
        if node.scalarValue == .null { return event }
        let keys = kind == .screen ? Self.screenKeys : Self.eventKeys
        guard let fields = context.entries(of: node, allowed: keys, in: "\(kind.word) '\(name)'") else { return nil }
        if let wireName = fields["name"], let text = context.string(wireName.value, expected: "the 'name' of screen '\(name)'") {
            if text.allSatisfy(\.isWhitespace) {
                context.error("the 'name' of screen '\(name)' is blank; write the name providers receive, e.g. 'Product Detail', or remove it to send '\(name)'", at: wireName.value.location)
                return nil
            }
            event.name = text
        }
        event.description = context.string(fields["description"], expected: "a description")
        if let pair = fields["version"] {
            event.declaredVersion = planVersion(pair.value, of: "\(kind.word) '\(name)'")
            event.versionLocation = pair.value.location
        }
        if let consent = fields["consent"], let text = context.string(consent.value, expected: "'consent'") {
            if let first = text.unicodeScalars.first, first.isASCIILetter,
               text.unicodeScalars.allSatisfy({ $0.isASCIILetter || $0.isASCIIDigit || $0 == "_" }) {
                event.consent = text
            } else {
                context.error("consent category '\(text)' must be a name of letters, digits and '_', e.g. analytics or marketing", at: consent.value.location)
            }
        }
        if let deprecated = fields["deprecated"] {
            switch deprecated.value.scalarValue {
            case .string(let message): event.deprecationMessage = message
            case .bool(true): event.deprecationMessage = ""
            default:
                context.error("'deprecated' takes a message saying what to use instead, or true; to undeprecate the \(kind.word), remove the key", at: deprecated.value.location)
            }
        }
        if let parameters = fields["parameters"] {
            event.parameters = self.parameters(parameters.value, event: name, kind: kind)
        }
        return event
    }

    private mutating func parameters(_ node: YAMLNode, event: String, kind: ParameterKind) -> [TrackingSpec.Parameter] {
        guard let pairs = context.pairs(of: node, expected: "'parameters' of \(kind.word) '\(event)'") else { return [] }
        var parameters: [TrackingSpec.Parameter] = []
        parameters.reserveCapacity(pairs.count)
        var swiftNames = NameTable(capacity: pairs.count)
        for pair in pairs {
            let owner = ParameterOwner(parameter: pair.key, event: event, kind: kind)
            guard SwiftNaming.isValidName(pair.key) else {
                context.error("parameter name '\(pair.key)' of \(kind.word) '\(event)' cannot become a Swift name; use ASCII letters, digits, spaces, '_', '-' or '.', starting with a letter", at: pair.keyLocation)
                continue
            }
            let swiftName = SwiftNaming.lowerCamelCase(pair.key)
            if Self.reservedParameterNameLengths.contains(swiftName.utf8.count), SwiftNaming.reservedParameterNames.contains(swiftName) {
                context.error("\(owner) becomes '\(swiftName)', which Swift does not allow as an argument name; rename it", at: pair.keyLocation)
                continue
            }
            if let (other, location) = swiftNames[swiftName] {
                context.error("parameters '\(other)' (line \(location.line), column \(location.column)) and '\(pair.key)' of \(kind.word) '\(event)' both become '\(swiftName)' in Swift; rename one of them", at: pair.keyLocation)
                continue
            }
            swiftNames.take(swiftName, by: (pair.key, pair.keyLocation))
            if let parameter = typedParameter(pair, swiftName: swiftName, owner: owner) {
                parameters.append(parameter)
            }
        }
        return parameters
    }

    /// A parameter, trait or global property with its Swift types resolved.
    mutating func typedParameter(_ pair: YAMLPair, swiftName: String, owner: ParameterOwner) -> TrackingSpec.Parameter? {
        var parameter = TrackingSpec.Parameter(
            name: pair.key, swiftName: swiftName, description: nil,
            type: ValueType(base: .string, isArray: false, isOptional: false), swiftType: "", swiftValueType: "",
            constraints: .init(), isPII: owner.kind.isPIIByDefault, location: pair.keyLocation
        )
        // Read in place rather than returned: a parameter returned in an optional was
        // copied and destroyed on its way into the list.
        guard read(pair, into: &parameter, owner: owner) else { return nil }
        parameter.swiftValueType = swiftTypeName(ValueType(base: parameter.type.base, isArray: parameter.type.isArray, isOptional: false))
        parameter.swiftType = parameter.swiftValueType + (parameter.type.isOptional ? "?" : "")
        return parameter
    }

    /// Reads a parameter's declaration into `parameter`; `false` when it has an error.
    private mutating func read(_ pair: YAMLPair, into parameter: inout TrackingSpec.Parameter, owner: ParameterOwner) -> Bool {
        switch pair.value.content {
        case .scalar:
            // Shorthand: `price: double?`.
            guard let text = context.string(pair.value, expected: "the type of \(owner)") else { return false }
            guard let type = valueType(text, at: pair.value.location, for: owner),
                  acceptsOptionality(of: type, owner: owner, at: pair.value.location) else { return false }
            parameter.type = type
            return true
        case .sequence(let items):
            // Shorthand: `tags: [string]`.
            guard items.count == 1, let text = context.string(items[0], expected: "the element type of \(owner)") else {
                if items.count != 1 {
                    context.error("the array shorthand of \(owner) takes exactly one element type, e.g. [string]", at: pair.value.location)
                }
                return false
            }
            guard var type = valueType(text, at: items[0].location, for: owner) else { return false }
            if type.isArray || type.isOptional {
                context.error("the array shorthand of \(owner) takes a plain element type, e.g. [string]; write other types as a quoted string, e.g. \"[string]?\"", at: items[0].location)
                return false
            }
            type.isArray = true
            parameter.type = type
            return true
        case .mapping:
            let keys = owner.kind == .global ? Self.parameterKeys + ["persisted"] : Self.parameterKeys
            guard let fields = context.entries(of: pair.value, allowed: keys, in: owner.description) else { return false }
            guard let typeField = fields["type"] else {
                context.error("\(owner) has no 'type'; add one, e.g. type: string", at: pair.keyLocation)
                return false
            }
            guard let text = context.string(typeField.value, expected: "the type of \(owner)"),
                  var type = valueType(text, at: typeField.value.location, for: owner),
                  acceptsOptionality(of: type, owner: owner, at: typeField.value.location) else { return false }
            parameter.description = context.string(fields["description"], expected: "a description")
            if let pii = fields["pii"] { parameter.isPII = context.bool(pii.value, expected: "'pii'") ?? owner.kind.isPIIByDefault }
            if let persisted = fields["persisted"] { parameter.isPersisted = context.bool(persisted.value, expected: "'persisted'") ?? false }
            if let field = fields["dataType"], let name = context.string(field.value, expected: "'dataType'") {
                guard let canonical = PrivacyDataType.canonicalName(for: name) else {
                    context.error("unknown dataType '\(name)' for \(owner)\(Suggestion.hint(for: name, in: PrivacyDataType.names)) (Apple's collected data types)", at: field.value.location)
                    return false
                }
                parameter.dataType = canonical
            }
            guard let constraints = constraints(fields, type: type, owner: owner) else { return false }
            parameter.constraints = constraints
            if let enumField = fields["enum"], let cases = enumCases(enumField.value, owner: owner) {
                // An inline enum becomes a type of its own: an event's is named after event and
                // parameter; the others are nested in the type their factories return, so they
                // never clash with an event's (`UserTrait.LoyaltyTier`, `AnalyticsScreen.ProductDetailTab`).
                let localName = owner.kind == .event || owner.kind == .screen || owner.kind == .objectProperty
                    ? SwiftNaming.upperCamelCase(owner.event) + SwiftNaming.upperCamelCase(pair.key)
                    : SwiftNaming.upperCamelCase(pair.key)
                let container = owner.kind.container
                let typeName = container.map { "\($0).\(localName)" } ?? localName
                if types[typeName] != nil {
                    context.error("the inline enum of \(owner) would be the type '\(typeName)', which 'types:' already declares; use that type or rename it", at: enumField.keyLocation)
                    return false
                }
                declareEnum(name: typeName, swiftName: localName, container: container, description: parameter.description, cases: cases, at: enumField.keyLocation, owner: owner)
                guard types[typeName] != nil else { return false }
                type.base = .named(typeName)
                parameter.constraints.allowedValues = cases.map(\.rawValue)
            }
            parameter.type = type
            return true
        }
    }

    private mutating func constraints(_ fields: MappingFields, type: ValueType, owner: ParameterOwner) -> ParameterConstraint? {
        var constraints = ParameterConstraint()
        var valid = true
        let isNumber = type.base == .int || type.base == .double
        let isString = type.base == .string
        for key in ["min", "max"] {
            guard let field = fields[key] else { continue }
            guard isNumber else {
                context.error("'\(key)' applies to int and double parameters, not '\(type)' (\(owner)); remove it or change the type", at: field.keyLocation)
                valid = false
                continue
            }
            guard let value = context.number(field.value, expected: "'\(key)'") else { valid = false; continue }
            if type.base == .int, value.rounded() != value {
                context.error("'\(key)' of the int \(owner) must be a whole number, not \(value)", at: field.value.location)
                valid = false
            }
            if key == "min" { constraints.min = value } else { constraints.max = value }
        }
        for key in ["minLength", "maxLength", "pattern", "enum"] {
            guard let field = fields[key] else { continue }
            guard isString else {
                context.error("'\(key)' applies to string parameters, not '\(type)' (\(owner)); remove it or change the type", at: field.keyLocation)
                valid = false
                continue
            }
            switch key {
            case "minLength": constraints.minLength = context.count(field.value, expected: "'minLength'")
            case "maxLength": constraints.maxLength = context.count(field.value, expected: "'maxLength'")
            case "pattern":
                guard let pattern = context.string(field.value, expected: "'pattern'") else { valid = false; continue }
                if checkPattern(pattern, at: field.value, owner: owner, maxLength: constraints.maxLength) {
                    constraints.pattern = pattern
                } else {
                    valid = false
                }
            default: break
            }
        }
        if let min = constraints.min, let max = constraints.max, min > max, let field = fields["max"] {
            context.error("'max' (\(max.compactDescription)) of \(owner) is less than its 'min' (\(min.compactDescription)); swap them", at: field.value.location)
            valid = false
        }
        if let min = constraints.minLength, let max = constraints.maxLength, min > max, let field = fields["maxLength"] {
            context.error("'maxLength' (\(max)) of \(owner) is less than its 'minLength' (\(min)); swap them", at: field.value.location)
            valid = false
        }
        return valid ? constraints : nil
    }
}

extension SpecValidationPass {
    /// Checks a `pattern` with the parser and matcher the runtime uses, and rejects
    /// forms that are exponentially slow for backtracking matchers; `true` if usable.
    private mutating func checkPattern(_ pattern: String, at node: YAMLNode, owner: ParameterOwner, maxLength: Int?) -> Bool {
        do {
            let syntax = try RegexParser.parse(pattern)
            let program = try RegexProgram(syntax)
            if let hazard = RegexHazard.find(in: syntax) {
                context.error("'pattern' of \(owner) \(hazard.message(in: pattern))", at: Self.location(of: hazard.offset, in: pattern, at: node))
                return false
            }
            // Program size × value length is bounded, so a large pattern matches only short values.
            let limit = program.maximumInputLength
            if limit < (maxLength ?? RegexProgram.maximumInput) {
                context.warning(
                    "'pattern' of \(owner) is large, so values longer than \(limit) characters are not matched and count as violations; set 'maxLength: \(limit)' or less, or use smaller repetition counts",
                    at: node.location)
            }
            return true
        } catch {
            context.error("'pattern' of \(owner) is not a valid regular expression: \(error.message)", at: Self.location(of: error.offset, in: pattern, at: node))
            return false
        }
    }

    /// Where the pattern's character at `offset` is written. A one-line value without
    /// backslashes or quotes reads the same in the file, after the opening quote if
    /// quoted; any other value (escapes, line breaks) gets its start. The parser does
    /// not tell quotes from block scalars (`|-`) or a `!!str` tag, which would shift
    /// the column; patterns are rarely written so, and the message quotes the part.
    static func location(of offset: Int, in pattern: String, at node: YAMLNode) -> SourceLocation {
        guard case .scalar(_, let style) = node.content,
              !pattern.unicodeScalars.contains(where: { "\\\"'\n\r".unicodeScalars.contains($0) }) else {
            return node.location
        }
        var location = node.location
        location.column += offset + (style == .plain ? 0 : 1)
        return location
    }
}

extension SpecValidationPass {
    /// The Swift spelling of a type, with enums by their Swift names.
    func swiftTypeName(_ type: ValueType) -> String {
        var name: String
        switch type.base {
        case .string: name = "String"
        case .int: name = "Int"
        case .double: name = "Double"
        case .bool: name = "Bool"
        case .date: name = "Date"
        case .url: name = "URL"
        case .uuid: name = "UUID"
        case .named(let specName): name = types[specName]?.swiftName ?? specName
        case .object(let specName): name = objects[specName]?.swiftName ?? specName
        }
        if type.isArray { name = "[\(name)]" }
        return type.isOptional ? name + "?" : name
    }
}

/// `parameter 'x' of event 'y'`, `trait 'x'`, put together only when a message needs
/// it: most parameters have no error, and building the text for each cost a tenth of
/// the generator's time on large specs.
struct ParameterOwner: CustomStringConvertible {
    let parameter: String
    /// The event or screen the parameter belongs to, or the object type of a
    /// property; empty for traits and globals.
    let event: String
    let kind: ParameterKind

    var description: String {
        switch kind {
        case .event, .screen: "parameter '\(parameter)' of \(kind.word) '\(event)'"
        case .trait, .groupTrait, .global: "\(kind.word) '\(parameter)'"
        case .objectProperty: "property '\(parameter)' of type '\(event)'"
        }
    }
}
