import _AnnaGeneratorCore

/// The languages `anna generate` writes.
public enum ClientLanguage: String, Sendable, CaseIterable {
    /// `AnalyticsEvent` factories for Anna's runtime: `NAME.anna.swift`.
    case swift
    /// A typed module for the web and Node: `NAME.anna.ts`.
    case typescript
    /// A typed client for Android and the JVM: `NAME.anna.kt`.
    case kotlin

    /// Reads a command line's `--language` value.
    /// - Parameter value: `swift`, `typescript` or `kotlin`.
    /// - Throws: ``ClientOptionError`` naming the option and its choices.
    public init(parsing value: String) throws(ClientOptionError) {
        self = try ClientOptionError.parse(value, option: "--language")
    }

    /// The generated file's extension.
    public var fileExtension: String {
        switch self {
        case .swift: "swift"
        case .typescript: "ts"
        case .kotlin: "kt"
        }
    }

    /// The one rule naming a generated file: the name Swift's would have, with this
    /// language's extension (`catalog.anna.swift` → `catalog.anna.ts`).
    /// - Parameter swiftFileName: ``AnnaGenerator/outputFileName(for:)``, or a name
    ///   made unique among specs that share a base name.
    /// - Returns: This language's file name.
    public func outputFileName(forSwiftFile swiftFileName: String) -> String {
        guard self != .swift, swiftFileName.hasSuffix(".swift") else { return swiftFileName }
        return String(swiftFileName.dropLast("swift".count)) + fileExtension
    }
}

/// How a TypeScript or Kotlin client names what it sends, as the runtime's naming
/// choice maps the spec's names.
public enum ClientNaming: String, Sendable, CaseIterable {
    /// The spec's names, as written.
    case spec
    /// snake_case, as the runtime's `SnakeCaseEventMapper` maps them.
    case snakeCase = "snake_case"

    /// Reads a command line's `--naming` value.
    /// - Parameter value: `spec` or `snake_case`.
    /// - Throws: ``ClientOptionError`` naming the option and its choices.
    public init(parsing value: String) throws(ClientOptionError) {
        self = try ClientOptionError.parse(value, option: "--naming")
    }

    var wireNaming: WireNaming {
        switch self {
        case .spec: .spec
        case .snakeCase: .snakeCase
        }
    }
}

/// A command line's value that is none of its option's choices.
public struct ClientOptionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The option, as the command line spells it: `--language`.
    public var option: String
    /// The value given.
    public var value: String
    /// The values the option takes.
    public var choices: [String]

    /// `--language must be swift, typescript or kotlin, not 'java'.`
    public var description: String {
        let list = choices.count > 1 ? choices.dropLast().joined(separator: ", ") + " or " + choices[choices.count - 1] : choices.joined()
        return "\(option) must be \(list), not '\(value)'."
    }

    /// The case of `Choice` spelled `value`, or the error naming `option`.
    static func parse<Choice: RawRepresentable & CaseIterable>(
        _ value: String, option: String
    ) throws(ClientOptionError) -> Choice where Choice.RawValue == String {
        guard let choice = Choice(rawValue: value) else {
            throw ClientOptionError(option: option, value: value, choices: Choice.allCases.map(\.rawValue))
        }
        return choice
    }
}

/// What a TypeScript or Kotlin client is generated with.
public struct ClientOptions: Sendable, Hashable {
    /// The names sent.
    public var naming: ClientNaming
    /// The Kotlin file's `package`, if any.
    public var kotlinPackage: String?

    /// Options; by default the spec's names and no Kotlin package.
    public init(naming: ClientNaming = .spec, kotlinPackage: String? = nil) {
        self.naming = naming
        self.kotlinPackage = kotlinPackage
    }

    /// Replaced by the typed naming, read once where the command line is.
    @available(*, unavailable, message: "use init(naming: ClientNaming, kotlinPackage:) instead; ClientNaming(parsing:) reads a command line's value")
    public init(naming: String, kotlinPackage: String?) {
        self.init(naming: ClientNaming(rawValue: naming) ?? .spec, kotlinPackage: kotlinPackage)
    }

    /// Replaced by the typed naming's cases.
    @available(*, unavailable, message: "use ClientNaming.allCases instead")
    public static var namingChoices: [String] { ClientNaming.allCases.map(\.rawValue) }
}

extension AnnaGenerator {
    /// Generates Swift, TypeScript or Kotlin from spec bytes, from one validated spec.
    /// - Parameters:
    ///   - bytes: The spec's contents.
    ///   - file: The path shown in diagnostics and in the generated header.
    ///   - language: The language; `.swift` is ``generate(_:file:outputPath:)``.
    ///   - options: The naming and the Kotlin package.
    /// - Returns: The source and the warnings.
    /// - Throws: ``SpecError`` with every diagnostic when the spec has errors.
    public func generate(
        _ bytes: [UInt8], file: String, language: ClientLanguage, options: ClientOptions = ClientOptions()
    ) throws(SpecError) -> (source: String, warnings: [Diagnostic]) {
        guard let syntax = language.syntax(options) else { return try generate(bytes, file: file) }
        return try generate(bytes, file: file, syntax: syntax, naming: options.naming)
    }

    /// A client of the spec, printed through a language's syntax table.
    private func generate(
        _ bytes: [UInt8], file: String, syntax: any ClientSyntax, naming: ClientNaming
    ) throws(SpecError) -> (source: String, warnings: [Diagnostic]) {
        let (spec, diagnostics) = check(bytes, file: file)
        guard let spec else { throw SpecError(diagnostics: diagnostics) }
        return (syntax.render(ClientTranslator(naming: naming.wireNaming).translate(spec)), diagnostics)
    }

    /// Replaced by the one rule naming every language's file.
    @available(*, unavailable, message: "use language.outputFileName(forSwiftFile: AnnaGenerator.outputFileName(for: specPath)) instead")
    public static func outputFileName(for specPath: String, language: ClientLanguage) -> String {
        language.outputFileName(forSwiftFile: outputFileName(for: specPath))
    }
}

extension AnnaGenerator {
    /// Generates a spec in a language and writes it to `path` unless the file there
    /// already holds it, as `anna generate` does.
    /// - Parameters:
    ///   - onlyComparing: Write nothing; `written` then says whether the file differs.
    /// - Returns: The warnings, whether the file was written (or differs) or the file
    ///   system's error, and, for Swift, what the caller keeps alive until it exits.
    /// - Throws: ``SpecError`` when the spec has errors; nothing is written then.
    package func generate(
        _ bytes: [UInt8], file: String, language: ClientLanguage, options: ClientOptions,
        writingTo path: String, onlyComparing: Bool
    ) throws(SpecError) -> (warnings: [Diagnostic], written: Result<Bool, any Error>, retained: AnyObject?) {
        guard let syntax = language.syntax(options) else {
            let (warnings, written, retained) = try generate(bytes, file: file, writingTo: path, onlyComparing: onlyComparing)
            return (warnings, written, retained)
        }
        var (source, warnings) = try generate(bytes, file: file, syntax: syntax, naming: options.naming)
        let update = FileUpdate(path: path, writing: !onlyComparing)
        source.withUTF8 { update.write($0) }
        return (warnings, Result { try update.commit() }, nil)
    }
}

extension ClientLanguage {
    /// The one place a language is dispatched: its syntax table, or `nil` for Swift,
    /// which the pipeline's own renderer writes.
    func syntax(_ options: ClientOptions) -> (any ClientSyntax)? {
        switch self {
        case .swift: nil
        case .typescript: TypeScriptSyntax(naming: options.naming)
        case .kotlin: KotlinSyntax(package: options.kotlinPackage)
        }
    }
}

extension ClientSyntax {
    /// The client of a model, printed through this syntax by the one walk.
    func render(_ model: ClientModel) -> String {
        ClientWalk(self).render(model)
    }
}
