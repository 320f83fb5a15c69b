import _AnnaGeneratorCore

/// The languages `anna generate` writes.
public enum ClientLanguage: String, Sendable, CaseIterable {
    /// `AnalyticsEvent` factories for Anna's runtime: `NAME.anna.swift`.
    case swift
    /// A typed module for the web and Node: `NAME.anna.ts`.
    case typescript
    /// A typed client for Android and the JVM: `NAME.anna.kt`.
    case kotlin

    /// The generated file's extension.
    public var fileExtension: String {
        switch self {
        case .swift: "swift"
        case .typescript: "ts"
        case .kotlin: "kt"
        }
    }
}

/// What a TypeScript or Kotlin client is generated with.
public struct ClientOptions: Sendable, Hashable {
    /// `spec` or `snake_case`: the names sent, as the runtime's `--naming` choice maps them.
    public var naming: String
    /// The Kotlin file's `package`, if any.
    public var kotlinPackage: String?

    /// Options; by default the spec's names and no Kotlin package.
    public init(naming: String = "spec", kotlinPackage: String? = nil) {
        self.naming = naming
        self.kotlinPackage = kotlinPackage
    }

    /// The naming choices, as a command line spells them.
    public static let namingChoices = WireNaming.allCases.map(\.rawValue)
}

extension AnnaGenerator {
    /// Generates TypeScript or Kotlin from spec bytes, from the same validated spec as Swift.
    /// - Parameters:
    ///   - bytes: The spec's contents.
    ///   - file: The path shown in diagnostics and in the generated header.
    ///   - language: `.typescript` or `.kotlin` (`.swift` renders as ``generate(_:file:outputPath:)``).
    ///   - options: The naming and the Kotlin package.
    /// - Returns: The source and the warnings.
    /// - Throws: ``SpecError`` with every diagnostic when the spec has errors.
    public func generate(
        _ bytes: [UInt8], file: String, language: ClientLanguage, options: ClientOptions = ClientOptions()
    ) throws(SpecError) -> (source: String, warnings: [Diagnostic]) {
        if language == .swift { return try generate(bytes, file: file) }
        let (spec, diagnostics) = check(bytes, file: file)
        guard let spec else { throw SpecError(diagnostics: diagnostics) }
        let model = ClientTranslator(naming: WireNaming(rawValue: options.naming) ?? .spec).translate(spec)
        switch language {
        case .kotlin: return (KotlinRenderer(package: options.kotlinPackage).render(model), diagnostics)
        default: return (TypeScriptRenderer().render(model), diagnostics)
        }
    }

    /// The output file name for a spec in a language: `catalog.anna.yml` → `catalog.anna.ts`.
    public static func outputFileName(for specPath: String, language: ClientLanguage) -> String {
        let swiftName = outputFileName(for: specPath)
        guard language != .swift, swiftName.hasSuffix(".swift") else { return swiftName }
        return String(swiftName.dropLast("swift".count)) + language.fileExtension
    }
}

extension AnnaGenerator {
    /// Generates TypeScript or Kotlin and writes it to `path` unless the file there
    /// already holds it, as the Swift form does for `anna generate`.
    /// - Parameters:
    ///   - onlyComparing: Write nothing; `written` then says whether the file differs.
    /// - Returns: The warnings, and whether the file was written (or differs), or the
    ///   file system's error.
    /// - Throws: ``SpecError`` when the spec has errors; nothing is written then.
    package func generate(
        _ bytes: [UInt8], file: String, language: ClientLanguage, options: ClientOptions,
        writingTo path: String, onlyComparing: Bool
    ) throws(SpecError) -> (warnings: [Diagnostic], written: Result<Bool, any Error>) {
        var (source, warnings) = try generate(bytes, file: file, language: language, options: options)
        let update = FileUpdate(path: path, writing: !onlyComparing)
        source.withUTF8 { update.write($0) }
        return (warnings, Result { try update.commit() })
    }
}
