#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The generator's pipeline in one place: read, parse, validate, translate, render.
///
/// The command-line tool, the plugins, the tests and the fuzzer all come through here.
public struct AnnaGenerator: Sendable {
    /// The templates used for rendering.
    package var renderer: SwiftRenderer

    /// A generator with the built-in templates, rendered by compiled Swift.
    public init() {
        self.renderer = SwiftRenderer()
    }

    /// A generator with another renderer: a user's templates (`_AnnaGovernance`'s
    /// `init(templatesDirectory:)`) or, in tests, the Mustache form of the built-in ones.
    /// - Parameter renderer: What renders the model.
    package init(renderer: SwiftRenderer) {
        self.renderer = renderer
    }

    /// Parses spec bytes into the syntax tree and drops it: the parser's share of
    /// ``lint(_:file:)``, for the benchmarks.
    /// - Returns: Whether the bytes parsed.
    @_spi(Benchmarks) public func parseOnly(_ bytes: [UInt8], file: String) -> Bool {
        (try? YAMLParser().parse(bytes, file: file)) != nil
    }

    /// Parses and validates spec bytes: what `anna lint` does.
    /// - Parameters:
    ///   - bytes: The spec's contents.
    ///   - file: The path shown in diagnostics.
    /// - Returns: Every diagnostic, in file order; the spec is valid when none is an error.
    public func lint(_ bytes: [UInt8], file: String) -> [Diagnostic] {
        check(bytes, file: file).diagnostics
    }

    /// Parses and validates spec bytes.
    /// - Parameters:
    ///   - bytes: The spec's contents.
    ///   - file: The path shown in diagnostics and used to name the output.
    /// - Returns: The spec if it has no errors, and every diagnostic.
    package func check(_ bytes: [UInt8], file: String, validator: SpecValidator = SpecValidator()) -> (spec: TrackingSpec?, diagnostics: [Diagnostic]) {
        let (_, spec, diagnostics) = parseAndValidate(bytes, file: file, validator: validator)
        return (spec, diagnostics)
    }

    /// ``check(_:file:validator:)`` that also returns the syntax tree, when the bytes parse.
    private func parseAndValidate(
        _ bytes: [UInt8], file: String, validator: SpecValidator = SpecValidator()
    ) -> (root: YAMLNode?, spec: TrackingSpec?, diagnostics: [Diagnostic]) {
        let root: YAMLNode
        do {
            root = try YAMLParser().parse(bytes, file: file)
        } catch {
            return (nil, nil, error.diagnostics)
        }
        let (spec, diagnostics) = validator.validate(root, file: file)
        return (root, spec, diagnostics)
    }

    /// Generates Swift from spec bytes.
    /// - Parameters:
    ///   - bytes: The spec's contents.
    ///   - file: The path shown in diagnostics and in the generated header.
    ///   - outputPath: Where the Swift will be written, if known: the catalog then
    ///     finds its spec relative to that file, as the tools write it (see
    ///     ``SpecLocation``). `nil`: the catalog names `file` as it is.
    /// - Returns: The Swift source and the warnings.
    /// - Throws: ``SpecError`` with every diagnostic when the spec has errors.
    public func generate(_ bytes: [UInt8], file: String, outputPath: String? = nil) throws(SpecError) -> (source: String, warnings: [Diagnostic]) {
        let (spec, diagnostics) = check(bytes, file: file)
        guard let spec else { throw SpecError(diagnostics: diagnostics) }
        let model = SpecTranslator().translate(spec, specFromOutput: outputPath.map { SpecLocation.relativePath(of: file, fromFolderOf: $0) })
        return (renderer.renderWithCatalog(model), diagnostics)
    }

    /// Generates Swift from spec bytes and writes it to `path` unless the file there
    /// already holds it: ``generate(_:file:)`` and ``writeIfChanged(_:to:)`` in one,
    /// except that the catalog finds its spec relative to the generated file (see
    /// ``SpecLocation``), so the file can be committed beside its spec.
    /// The file is compared or written 64 KiB at a time as it is rendered
    /// (``FileUpdate``), never held whole: the tools write a file of a couple of
    /// megabytes for a large spec.
    /// - Parameters:
    ///   - bytes: The spec's contents.
    ///   - file: The path shown in diagnostics and in the generated header.
    ///   - path: Where to write.
    ///   - onlyComparing: Write nothing; `written` then says whether the file at
    ///     `path` is missing or differs (`anna generate --check`).
    /// - Returns: The warnings; whether the file was written, or the file system's
    ///   error; and `retained`, which holds the syntax tree, the spec and the render
    ///   model. A tool that exits next keeps it alive until `exit` (with
    ///   `withExtendedLifetime`), so the kernel takes that memory back at once: freed
    ///   node by node, a 1,000-event plan's took 1.1 ms of a 14 ms process. Compilers
    ///   do the same (clang's `-disable-free`). Anyone else lets it go.
    /// - Throws: ``SpecError`` with every diagnostic when the spec has errors; nothing is written then.
    package func generate(
        _ bytes: [UInt8], file: String, writingTo path: String, onlyComparing: Bool = false
    ) throws(SpecError) -> (warnings: [Diagnostic], written: Result<Bool, any Error>, retained: AnyObject) {
        let (root, spec, diagnostics) = parseAndValidate(bytes, file: file)
        guard let spec else { throw SpecError(diagnostics: diagnostics) }
        let model = SpecTranslator().translate(spec, specFromOutput: SpecLocation.relativePath(of: file, fromFolderOf: path))
        let update = FileUpdate(path: path, writing: !onlyComparing)
        var text = SourceText(chunkSize: 64 * 1024, drain: update.write)
        renderer.renderText(withCatalogOf: model, into: &text)
        text.drainAll()
        return (diagnostics, Result { try update.commit() }, Retained(root: root, spec: spec, model: model))
    }

    /// What ``generate(_:file:writingTo:)`` built, for a tool to leave to its exit.
    private final class Retained {
        let root: YAMLNode?
        let spec: TrackingSpec
        let model: RenderModel

        init(root: YAMLNode?, spec: TrackingSpec, model: RenderModel) {
            self.root = root
            self.spec = spec
            self.model = model
        }
    }

    /// Reads a spec file.
    /// - Parameter path: The file's path.
    /// - Returns: Its bytes.
    /// - Throws: ``SpecError`` located at the file's start when it cannot be read.
    public static func read(_ path: String) throws(SpecError) -> [UInt8] {
        guard let bytes = readRegularFile(path) ?? FileManager.default.contents(atPath: path).map([UInt8].init) else {
            throw SpecError(diagnostics: [.error("cannot read the file; check that it exists and is readable", at: SourceLocation(file: path, line: 1, column: 1))])
        }
        return bytes
    }

    /// A regular file's bytes, read straight into the array (through `Data`, each
    /// spec was copied twice); `nil` for anything else, which `read(_:)` then reads
    /// through `FileManager`, or when the file cannot be read.
    static func readRegularFile(_ path: String) -> [UInt8]? {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        let size = Int(status.st_size)
        var complete = true
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            count = size == 0 ? 0 : fread(buffer.baseAddress!, 1, size, file)
            complete = count == size && fgetc(file) == EOF
        }
        return complete ? bytes : nil
    }

    /// Writes a file only when its contents differ, so builds that depend on it
    /// are not redone for nothing.
    /// - Parameters:
    ///   - contents: The new contents.
    ///   - path: Where to write.
    /// - Returns: Whether the file was written.
    /// - Throws: The file system's error.
    @discardableResult
    public static func writeIfChanged(_ contents: String, to path: String) throws -> Bool {
        var contents = contents
        let update = FileUpdate(path: path)
        contents.withUTF8 { update.write($0) }
        return try update.commit()
    }

    /// The output file name for a spec: `catalog.anna.yml` → `catalog.anna.swift`.
    /// - Parameter specPath: The spec's path.
    /// - Returns: The file name of its generated Swift.
    public static func outputFileName(for specPath: String) -> String {
        SpecFileNaming.outputFileName(for: specPath)
    }

    /// The output file name for a spec at a path relative to a folder, unique within
    /// it: `Checkout/catalog.anna.yml` → `Checkout_catalog.anna.swift`, as the build
    /// plugin names them.
    public static func outputFileName(forRelativePath path: String) -> String {
        SpecFileNaming.outputFileName(forRelativePath: path)
    }

    /// Whether a path names a tracking spec (`*.anna.yml`, `*.anna.yaml`).
    public static func isSpec(_ path: String) -> Bool {
        SpecFileNaming.isSpec(path)
    }

    /// The version of the generator and of the `anna` tool, as `anna --version` prints it.
    public static let version = "0.13.0"
}
