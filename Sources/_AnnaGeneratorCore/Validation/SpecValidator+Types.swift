import AnnaRules
extension SpecValidationPass {
    package static let scalarTypes: [String: ValueType.Base] = [
        "string": .string, "int": .int, "double": .double, "bool": .bool,
        "date": .date, "url": .url, "uuid": .uuid,
    ]

    /// `types:`: named `String`-backed enums, and object types with `properties:`.
    ///
    /// Every name is registered before any object's properties are read, so types may
    /// refer to types declared after them.
    mutating func declareTypes(_ node: YAMLNode) {
        guard let pairs = context.pairs(of: node, expected: "'types'") else { return }
        var declaredObjects: [(pair: YAMLPair, fields: MappingFields)] = []
        for pair in pairs {
            guard let fields = context.entries(of: pair.value, allowed: ["description", "enum", "properties"], in: "type '\(pair.key)'") else {
                rejectedTypeNames.insert(pair.key)
                continue
            }
            if fields["properties"] != nil {
                if let enumField = fields["enum"] {
                    context.error("type '\(pair.key)' has both 'enum:' and 'properties:'; a type is either an enum or an object: remove one", at: enumField.keyLocation)
                    rejectedTypeNames.insert(pair.key)
                } else if declareObject(name: pair.key, at: pair.keyLocation) {
                    declaredObjects.append((pair, fields))
                }
                continue
            }
            defer { if types[pair.key] == nil { rejectedTypeNames.insert(pair.key) } }
            let description = context.string(fields["description"], expected: "a description")
            guard let casesNode = fields["enum"] else {
                context.error("type '\(pair.key)' has no 'enum:' or 'properties:'; list its values, e.g. enum: [a, b], or its properties, e.g. properties: { id: string }", at: pair.keyLocation)
                continue
            }
            guard let cases = enumCases(casesNode.value, owner: "type '\(pair.key)'") else { continue }
            declareEnum(name: pair.key, swiftName: nil, description: description, cases: cases, at: pair.keyLocation)
        }
        for (pair, fields) in declaredObjects {
            defineObject(pair, fields: fields)
        }
        checkObjectGraph()
    }

    /// Type names generated code refers to, besides ``SwiftNaming/reservedTypeNames``:
    /// a declared type of one of these names would shadow it.
    package static let generatedTypeNames: Set<String> = [
        "UserTrait", "GroupTrait", "AnalyticsGlobal", "AnalyticsScreen", "PropertyMetadata",
        "AnalyticsValueRepresentable", "AnnaSpecMetadata", "AnnaScreenMetadata",
    ]

    /// Registers an enum under `name`; `swiftName` is derived from `name` when `nil`.
    /// An inline enum of a screen, trait or global is nested in `container`, and `owner`
    /// names it in messages.
    mutating func declareEnum(
        name: String, swiftName: String?, container: String? = nil, description: String?,
        cases: [TrackingSpec.EnumCase], at location: SourceLocation, owner: ParameterOwner? = nil
    ) {
        guard SwiftNaming.isValidName(name) else {
            context.error("type name '\(name)' cannot become a Swift type name; use ASCII letters, digits, spaces, '_', '-' or '.', starting with a letter", at: location)
            return
        }
        let localName = swiftName ?? SwiftNaming.upperCamelCase(name)
        let swiftName = container.map { "\($0).\(localName)" } ?? localName
        let isTaken = SwiftNaming.reservedTypeNames.contains(localName) || Self.generatedTypeNames.contains(localName)
            || (container == "AnalyticsGlobal" && localName == "Key")
        if let owner, let container {
            let renamed = owner.kind.isProperty ? owner.kind.word : "parameter"
            // Inside the container's extension the nested name would hide a type of the same name.
            if isTaken {
                context.error("the inline enum of \(owner) would be the type '\(swiftName)', which hides the type '\(localName)' that generated code uses; rename the \(renamed) or declare the enum under 'types:'", at: location)
                return
            }
            if let first = swiftTypeNames[localName] {
                let other = typeOrder.first { types[$0]?.swiftName == localName } ?? localName
                context.error("the inline enum of \(owner) would be the type '\(swiftName)', which hides the type '\(localName)' (line \(first.line), column \(first.column)) in \(container)'s extension; use that type (type: \(other)) or rename the \(renamed)", at: location)
                return
            }
        } else if Self.scalarTypes[name] != nil || isTaken {
            context.error("type name '\(name)' is taken by a type generated code uses; rename it, e.g. '\(localName)Kind'", at: location)
            return
        }
        if let first = swiftTypeNames[swiftName] {
            context.error("type '\(name)' becomes the Swift type '\(swiftName)', already declared at line \(first.line), column \(first.column); rename one of them", at: location)
            return
        }
        swiftTypeNames[swiftName] = location
        types[name] = TrackingSpec.EnumType(
            name: name, swiftName: swiftName, container: container, description: description, cases: cases, location: location
        )
        typeOrder.append(name)
    }

    /// An `enum:` list: strings that become distinct Swift case names.
    mutating func enumCases(_ node: YAMLNode, owner: some CustomStringConvertible) -> [TrackingSpec.EnumCase]? {
        guard let items = context.items(of: node, expected: "'enum' of \(owner)") else { return nil }
        guard !items.isEmpty else {
            context.error("'enum' of \(owner) is empty; list at least one value", at: node.location)
            return nil
        }
        var cases: [TrackingSpec.EnumCase] = []
        var seen = NameTable(capacity: items.count)
        var valid = true
        for item in items {
            guard let value = context.string(item, expected: "an enum value") else { valid = false; continue }
            guard SwiftNaming.isValidName(value) else {
                context.error("enum value '\(value)' of \(owner) cannot become a Swift case name; start it with an ASCII letter and use only letters, digits, spaces, '_', '-' or '.'", at: item.location)
                valid = false
                continue
            }
            let swiftName = SwiftNaming.lowerCamelCase(value)
            if SwiftNaming.reservedCaseNames.contains(swiftName) {
                context.error("enum value '\(value)' of \(owner) becomes the case '\(swiftName)', which every Swift enum of this kind already has; rename the value", at: item.location)
                valid = false
                continue
            }
            if let (other, location) = seen[swiftName] {
                let what = other == value ? "is listed twice" : "and '\(other)' both become the case '\(swiftName)'"
                context.error("enum value '\(value)' \(what) (line \(location.line), column \(location.column)); remove or rename one", at: item.location)
                valid = false
                continue
            }
            seen.take(swiftName, by: (value, item.location))
            cases.append(TrackingSpec.EnumCase(rawValue: value, swiftName: swiftName))
        }
        return valid ? cases : nil
    }

    /// Parses `T`, `T?`, `[T]`, `[T]?`.
    mutating func valueType(_ text: String, at location: SourceLocation, for owner: some CustomStringConvertible) -> ValueType? {
        if let type = simpleValueType(text) { return type }
        var body = Substring(text).trimmingSpaces
        var isOptional = false
        if body.hasSuffix("?") {
            isOptional = true
            body = body.dropLast().trimmingSpaces
        }
        var isArray = false
        if body.hasPrefix("[") {
            guard body.hasSuffix("]") else {
                context.error("type '\(text)' of \(owner) has no closing ']'; write an array as [string]", at: location)
                return nil
            }
            isArray = true
            body = body.dropFirst().dropLast().trimmingSpaces
            if body.hasPrefix("[") {
                context.error("type '\(text)' of \(owner) nests arrays, which providers cannot take; use one level, e.g. [string]", at: location)
                return nil
            }
            if body.hasSuffix("?") {
                context.error("type '\(text)' of \(owner) is an array of optionals; providers cannot take nil inside arrays: use [\(body.dropLast())] or [\(body.dropLast())]?", at: location)
                return nil
            }
        }
        let name = String(body)
        if let scalar = Self.scalarTypes[name] {
            return ValueType(base: scalar, isArray: isArray, isOptional: isOptional)
        }
        if types[name] != nil {
            return ValueType(base: .named(name), isArray: isArray, isOptional: isOptional)
        }
        if objects[name] != nil {
            return ValueType(base: .object(name), isArray: isArray, isOptional: isOptional)
        }
        // Its declaration's error is the one to fix; a second error here would only repeat it.
        if rejectedTypeNames.contains(name) { return nil }
        let known = Self.scalarTypes.keys.sorted() + typeOrder + objectOrder
        if name.isEmpty || name.contains(where: { "[]?".contains($0) }) {
            context.error("type '\(text)' of \(owner) is malformed; write T, T?, [T] or [T]? with T one of: \(known.joined(separator: ", "))", at: location)
        } else {
            context.error("unknown type '\(name)' for \(owner)\(Suggestion.hint(for: name, in: known))", at: location)
        }
        return nil
    }
}

extension SpecValidationPass {
    /// The usual spelling, `T` or `T?` with `T` a scalar type or a declared type's
    /// name of ASCII letters and digits, read from the bytes; `nil` for anything
    /// else, which ``valueType(_:at:for:)`` reads in full.
    private func simpleValueType(_ text: String) -> ValueType? {
        var text = text
        let parsed = text.withUTF8 { bytes -> (scalar: ValueType.Base?, isOptional: Bool)? in
            let isOptional = bytes.last == UInt8(ascii: "?")
            let body = UnsafeBufferPointer(rebasing: bytes[..<(bytes.count - (isOptional ? 1 : 0))])
            guard !body.isEmpty, body.allSatisfy({ $0.isASCIILetter || $0.isASCIIDigit }) else { return nil }
            return (Self.scalarType(body), isOptional)
        }
        guard let parsed else { return nil }
        if let scalar = parsed.scalar {
            return ValueType(base: scalar, isArray: false, isOptional: parsed.isOptional)
        }
        let name = parsed.isOptional ? String(text.dropLast()) : text
        if types[name] != nil {
            return ValueType(base: .named(name), isArray: false, isOptional: parsed.isOptional)
        }
        if objects[name] != nil {
            return ValueType(base: .object(name), isArray: false, isOptional: parsed.isOptional)
        }
        return nil
    }

    /// The scalar type spelled by `name`'s bytes, as ``scalarTypes`` maps them.
    private static func scalarType(_ name: UnsafeBufferPointer<UInt8>) -> ValueType.Base? {
        func spells(_ word: StaticString) -> Bool {
            word.withUTF8Buffer { $0.elementsEqual(name) }
        }
        switch name.count {
        case 3:
            if spells("int") { return .int }
            if spells("url") { return .url }
        case 4:
            if spells("bool") { return .bool }
            if spells("date") { return .date }
            if spells("uuid") { return .uuid }
        case 6:
            if spells("string") { return .string }
            if spells("double") { return .double }
        default: break
        }
        return nil
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var result = self
        while result.first == " " || result.first == "\t" { result = result.dropFirst() }
        while result.last == " " || result.last == "\t" { result = result.dropLast() }
        return result
    }
}
