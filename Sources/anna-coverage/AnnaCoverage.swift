// Needs swift-syntax: compiled with Anna's `Coverage` trait (see AnnaCoverage+WithoutTrait.swift).
#if Coverage
import ArgumentParser
import Foundation
import SwiftParser
import SwiftSyntax
import _AnnaGeneratorCore
import _AnnaGovernance

/// `anna coverage`: for every event and screen a package's specs declare, where app
/// code reports it, whether a test asserts it, and whether a task reports it.
/// Exit status: 0; 1 with `--fail-unused` when one is never reported; 2 bad input.
@main
struct AnnaCoverage: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "anna-coverage",
        abstract: "Lists, for every declared event and screen, where the package reports it, whether tests assert it and whether a task reports it."
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Option(help: "The package's folder (with Package.swift).")
    var package: String = "."

    @Option(help: "text (default) or json.")
    var format: Format = .text

    @Flag(help: "Exit 1 when an event or screen is never reported by app code or a task.")
    var failUnused = false

    func run() throws {
        let root = URL(fileURLWithPath: package).standardizedFileURL
        guard FileManager.default.fileExists(atPath: root.appending(path: "Package.swift").path) else {
            FileHandle.standardError.write(Data("anna coverage: error: \(package) has no Package.swift; give the package's folder with --package\n".utf8))
            throw ExitCode(2)
        }
        let files = Self.files(under: root)
        var specs: [TrackingSpec] = []
        var failed = false
        for path in files.specs {
            let shown = Self.relative(path, to: root)
            do throws(SpecError) {
                let (spec, diagnostics) = AnnaGenerator().check(try AnnaGenerator.read(path.path), file: shown)
                if let spec { specs.append(spec) } else {
                    for diagnostic in diagnostics where diagnostic.severity == .error {
                        FileHandle.standardError.write(Data("\(diagnostic)\n".utf8))
                    }
                    failed = true
                }
            } catch {
                for diagnostic in error.diagnostics { FileHandle.standardError.write(Data("\(diagnostic)\n".utf8)) }
                failed = true
            }
        }
        if failed { throw ExitCode(2) }
        var entries: [CoverageEntry] = []
        for spec in specs {
            for (kind, factory, events) in [("event", "AnalyticsEvent", spec.events), ("screen", "AnalyticsScreen", spec.screens)] {
                for event in events {
                    let tasks = kind == "event" ? spec.tasks.filter { $0.event.name == event.name }.map { $0.match.joined(separator: " or ") } : []
                    entries.append(CoverageEntry(
                        kind: kind, name: event.name, swift: "\(factory).\(event.swiftName)", spec: spec.file,
                        line: event.location.line, column: event.location.column, appUses: [], testUses: [], tasks: tasks, deprecated: event.deprecationMessage != nil))
                }
            }
        }
        let finder = UseFinder(entries: entries)
        for file in files.swift {
            guard let source = try? String(contentsOf: file, encoding: .utf8) else { continue }
            let path = Self.relative(file, to: root)
            let isTest = path.hasPrefix("Tests/") || path.contains("/Tests/")
            for (index, use) in finder.uses(in: source, file: path) {
                if isTest { entries[index].testUses.append(use) } else { entries[index].appUses.append(use) }
            }
        }
        let report = CoverageReport(entries: entries)
        switch format {
        case .text:
            print(report.text(), terminator: "")
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        }
        if failUnused && !report.unused.isEmpty { throw ExitCode.failure }
    }

    static func relative(_ url: URL, to root: URL) -> String {
        let path = url.standardizedFileURL.path
        let prefix = root.path.hasSuffix("/") ? root.path : root.path + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    /// The specs and Swift files of a package, in path order, leaving out build
    /// folders, hidden folders and generated Swift.
    static func files(under root: URL) -> (specs: [URL], swift: [URL]) {
        var specs: [URL] = []
        var swift: [URL] = []
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isDirectoryKey], options: [.skipsHiddenFiles])
        while let url = enumerator?.nextObject() as? URL {
            let name = url.lastPathComponent
            if (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true {
                if name.hasPrefix(".build") || name == "AnnaGenerated" || name == "Fixtures" || name == "Examples" && url.deletingLastPathComponent().standardizedFileURL == root.standardizedFileURL {
                    enumerator?.skipDescendants()
                }
                continue
            }
            if AnnaGenerator.isSpec(name) {
                specs.append(url)
            } else if name.hasSuffix(".swift") && !name.hasSuffix(".anna.swift") && name != "Package.swift" {
                swift.append(url)
            }
        }
        return (specs.sorted { $0.path < $1.path }, swift.sorted { $0.path < $1.path })
    }
}

/// Finds uses of the generated factories in Swift source with swift-syntax: member
/// accesses named like a factory (`.productViewed(…)`, `AnalyticsEvent.productViewed`,
/// `.cart` inside `screen(…)`), told apart by the type written before the dot or, for
/// an implicit member, by the call it is an argument of.
struct UseFinder {
    let eventsByName: [String: [Int]]
    let screensByName: [String: [Int]]

    init(entries: [CoverageEntry]) {
        var events: [String: [Int]] = [:]
        var screens: [String: [Int]] = [:]
        for (index, entry) in entries.enumerated() {
            let member = String(entry.swift.split(separator: ".").last ?? "").replacingOccurrences(of: "`", with: "")
            if entry.kind == "event" { events[member, default: []].append(index) } else { screens[member, default: []].append(index) }
        }
        eventsByName = events
        screensByName = screens
    }

    func uses(in source: String, file: String) -> [(Int, CoverageEntry.Use)] {
        let tree = Parser.parse(source: source)
        let converter = SourceLocationConverter(fileName: file, tree: tree)
        let visitor = Visitor(finder: self, converter: converter, file: file)
        visitor.walk(tree)
        return visitor.found
    }

    final class Visitor: SyntaxVisitor {
        let finder: UseFinder
        let converter: SourceLocationConverter
        let file: String
        var found: [(Int, CoverageEntry.Use)] = []

        init(finder: UseFinder, converter: SourceLocationConverter, file: String) {
            self.finder = finder
            self.converter = converter
            self.file = file
            super.init(viewMode: .sourceAccurate)
        }

        override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
            let name = node.declName.baseName.text.replacingOccurrences(of: "`", with: "")
            let events = finder.eventsByName[name] ?? []
            let screens = finder.screensByName[name] ?? []
            guard !events.isEmpty || !screens.isEmpty else { return .visitChildren }
            let candidates: [Int]
            if let base = node.base {
                let type = base.trimmedDescription
                if type == "AnalyticsEvent" {
                    candidates = events
                } else if type == "AnalyticsScreen" {
                    candidates = screens
                } else {
                    // `something.productViewed` on another value is not a factory.
                    return .visitChildren
                }
            } else {
                let call = Self.enclosingCallName(of: Syntax(node))
                if call == "screen" || call == "expectScreens" {
                    candidates = screens.isEmpty ? events : screens
                } else if call == "report" || call == "expectEvents" || call == "reportWaitingForRoom" {
                    candidates = events.isEmpty ? screens : events
                } else {
                    candidates = events + screens
                }
            }
            let location = node.declName.startLocation(converter: converter)
            let asserted = Self.isInAssertion(Syntax(node))
            for index in candidates {
                found.append((index, CoverageEntry.Use(file: file, line: location.line, column: location.column, asserted: asserted)))
            }
            return .visitChildren
        }

        /// The name of the nearest call the node is an argument of.
        static func enclosingCallName(of node: Syntax) -> String? {
            var current = node.parent
            while let node = current {
                if let call = node.as(FunctionCallExprSyntax.self) {
                    return calledName(call.calledExpression)
                }
                current = node.parent
            }
            return nil
        }

        static func calledName(_ expression: ExprSyntax) -> String? {
            if let member = expression.as(MemberAccessExprSyntax.self) { return member.declName.baseName.text }
            if let reference = expression.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
            return nil
        }

        /// Whether the node is inside an assertion: `#expect`/`#require`, `XCTAssert…`,
        /// or AnnaTesting's `expectEvents`/`expectScreens`.
        static func isInAssertion(_ node: Syntax) -> Bool {
            var current = node.parent
            while let node = current {
                if let macro = node.as(MacroExpansionExprSyntax.self), ["expect", "require"].contains(macro.macroName.text) {
                    return true
                }
                if let call = node.as(FunctionCallExprSyntax.self), let name = calledName(call.calledExpression),
                    name.hasPrefix("XCTAssert") || name == "expectEvents" || name == "expectScreens"
                {
                    return true
                }
                if node.is(CodeBlockItemSyntax.self) || node.is(MemberBlockItemSyntax.self) { return false }
                current = node.parent
            }
            return false
        }
    }
}
#endif
