// Needs SwiftNIO: compiled with Anna's `Inspector` trait (see AnnaInspect+WithoutTrait.swift).
#if Inspector
import ArgumentParser
import Foundation
import _AnnaGeneratorCore
import _AnnaGovernance
import _AnnaInspector

/// `anna inspect`: a collector on loopback that checks every call against the specs,
/// with a live page, reports for CI, and optional forwarding.
/// Exit status: 0 no violation; 1 a violation, or a required event not seen; 2 bad input.
@main
struct AnnaInspect: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "anna-inspect",
        abstract: "Runs a local Segment-compatible collector that checks every call against the tracking specs.",
        discussion: """
            Prints `anna-inspect: listening on http://HOST:PORT` as its first line. Stops on SIGINT or SIGTERM, or after \
            --idle-timeout seconds without a call; then writes the reports and exits 0 when nothing was wrong, 1 on any \
            violation (or a required event or screen not seen), 2 on bad input, an invalid option included.
            """
    )

    /// Runs the command; an invalid option exits 2, as the documentation says, not
    /// swift-argument-parser's 64, with the parser's message and the usage.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            Foundation.exit(2)
        }
    }

    @Argument(help: "Tracking specs (*.anna.yml), or folders to search for them.")
    var specs: [String] = []

    @Option(help: "The address to listen on. Anything but loopback exposes every call sent, and the page, to the network.")
    var host = "127.0.0.1"

    @Option(
        name: .customLong("allow-host"),
        help: "Also take requests whose Host header is this name (a tunnel's, or the machine's on the network); repeatable. Others are refused.")
    var allowedHosts: [String] = []

    @Option(help: "The port; 0 picks a free one.")
    var port = 8787

    @Option(name: .customLong("idle-timeout"), help: "Stop after this many seconds without a request to a collector endpoint.")
    var idleTimeout: Double?

    @Option(name: .customLong("report-json"), help: "Write the JSON report here when stopping.")
    var reportJSON: String?

    @Option(name: .customLong("report-junit"), help: "Write the JUnit XML report here when stopping.")
    var reportJUnit: String?

    @Flag(name: .customLong("github-annotations"), help: "Print GitHub Actions annotations (::error file=…,line=…,col=…::) on standard output when stopping.")
    var githubAnnotations = false

    @Flag(name: .customLong("require-all"), help: "Fail unless every declared event and screen was seen.")
    var requireAll = false

    @Option(name: .customLong("require"), help: "Fail unless this event or screen was seen (repeatable).")
    var required: [String] = []

    @Flag(name: .customLong("fail-on-warnings"), help: "Fail on warnings too (deprecated events, PII at the collector, a missing messageId).")
    var failOnWarnings = false

    @Option(
        name: .customLong("plan-versions"),
        help: ArgumentHelp(
            "A folder of released versions of the plan: each subfolder, or each spec file in it, is one version, read from its specs' version:.",
            discussion: "Each call is checked against the version its context.plan names; the specs given are one more version."))
    var planVersions: String?

    @Option(
        name: .customLong("plan-ref"),
        help: "A git revision (a tag of a release) whose versions of the specs given are one more version, read as anna diff --base reads them; repeatable.")
    var planRefs: [String] = []

    @Option(help: "How the client names events, screens and properties: spec (as declared) or snake_case (SnakeCaseEventMapper).")
    var naming = "spec"

    @Option(help: "Relay each accepted request unchanged to this collector, e.g. https://api.segment.io.")
    var forward: String?

    @Option(name: .customLong("forward-queue"), help: "The most requests waiting to be forwarded; more are dropped and counted.")
    var forwardQueue = 10_000

    @Option(help: "How many recent calls the page keeps; older ones are counted.")
    var keep = 1_000

    @Option(name: .customLong("max-body"), help: "The largest request body in bytes, as sent and inflated; larger gets 413.")
    var maxBody = 512 * 1024

    func validate() throws {
        if specs.isEmpty { throw ValidationError("give at least one tracking spec (*.anna.yml) or folder") }
        if !(0...65_535).contains(port) { throw ValidationError("--port must be between 0 and 65535") }
        if keep < 0 || maxBody < 1 || forwardQueue < 1 { throw ValidationError("--keep, --max-body and --forward-queue must be positive") }
        if InspectionPlan.Naming(rawValue: naming) == nil { throw ValidationError("--naming must be spec or snake_case") }
        if let idleTimeout, !(idleTimeout > 0) { throw ValidationError("--idle-timeout must be a positive number of seconds") }
        if let forward {
            guard let url = URL(string: forward), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
                throw ValidationError("--forward must be an http or https URL, e.g. https://api.segment.io")
            }
        }
    }

    func run() async throws {
        let wireNaming = InspectionPlan.Naming(rawValue: naming) ?? .spec
        let current = try Self.loadSpecs(specs)
        var released = try planVersions.map(Self.loadReleased) ?? []
        for revision in planRefs { released += try Self.loadReleased(at: revision, paths: specs) }
        let versions = PlanVersions(current: current, released: released, naming: wireNaming)
        let plan = versions.newest
        var limits = InspectorLimits()
        limits.recentCalls = keep
        limits.maximumBody = maxBody
        let inspector = Inspector(versions: versions, limits: limits)
        let forwarder = forward.flatMap(URL.init(string:)).map { Forwarder(target: $0, capacity: forwardQueue) }
        let server = InspectorServer(inspector: inspector, forwarder: forwarder)
        let token = AccessPolicy.isLoopback(host) ? nil : AccessPolicy.makeToken()
        let address: String
        do {
            address = try server.start(host: host, port: port, allowing: allowedHosts, token: token)
        } catch {
            FileHandle.standardError.write(Data("anna-inspect: error: cannot listen on \(host):\(port): \(error)\n".utf8))
            throw ExitCode(2)
        }
        FileHandle.standardOutput.write(Data("anna-inspect: listening on \(address)\n".utf8))
        let page = token.map { "\(address)/?token=\($0)" } ?? "\(address)/"
        if let token {
            FileHandle.standardError.write(Data("""
                anna-inspect: warning: listening on \(host), not loopback: anyone on the network can send calls; the page and /api \
                need the access token \(token) (open \(page), or send Authorization: Bearer \(token)); use it only on a network you trust

                """.utf8))
        }
        FileHandle.standardError.write(Data("anna-inspect: checking against \(plan.files.count) spec(s), \(plan.events.count) events, \(plan.screens.count) screens\(versions.isVersioned ? "; plan versions \(versions.knownVersions)" : ""); open \(page) for the live page\n".utf8))
        let reason = await StopSignal.wait(idleTimeout: idleTimeout, lastActivity: { server.lastActivity })
        FileHandle.standardError.write(Data("anna-inspect: stopping (\(reason))\n".utf8))
        await server.stop()
        let forwarding = await forwarder?.finish(target: forward ?? "")
        let report = InspectionReport(
            log: inspector.log, plan: plan, required: requireAll ? [] : (required.isEmpty ? nil : required),
            failOnWarnings: failOnWarnings, forwarding: forwarding, versions: versions)
        do {
            if let reportJSON { try report.json().write(toFile: reportJSON, atomically: true, encoding: .utf8) }
            if let reportJUnit { try report.junit().write(toFile: reportJUnit, atomically: true, encoding: .utf8) }
        } catch {
            FileHandle.standardError.write(Data("anna-inspect: error: cannot write a report: \(error)\n".utf8))
            throw ExitCode(2)
        }
        if githubAnnotations { FileHandle.standardOutput.write(Data(report.githubAnnotations().utf8)) }
        FileHandle.standardError.write(Data("\(report.summary())\n".utf8))
        if !report.passed { throw ExitCode(1) }
    }

    /// The released versions in `folder`: each subfolder, or each spec file in it, is
    /// one version. Exits 2 when one declares no `version:` or has errors.
    static func loadReleased(_ folder: String) throws -> [TrackingSpec] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            FileHandle.standardError.write(Data("\(folder):1:1: error: --plan-versions needs a folder of released specs (one subfolder or spec file per version)\n".utf8))
            throw ExitCode(2)
        }
        let entries = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
        let paths = entries.map { (folder as NSString).appendingPathComponent($0) }.filter { path in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && (isFolder.boolValue || AnnaGenerator.isSpec(path))
        }
        if paths.isEmpty {
            FileHandle.standardError.write(Data("\(folder):1:1: error: no released version here; put each version's specs in a subfolder, or its spec file, in this folder\n".utf8))
            throw ExitCode(2)
        }
        let specs = try loadSpecs(paths)
        let unversioned = specs.filter { $0.version == nil }
        for spec in unversioned {
            FileHandle.standardError.write(Data("\(spec.file):1:1: error: a released spec must declare its plan's version (version: 1.0.0 at its top) to be checked against\n".utf8))
        }
        if !unversioned.isEmpty { throw ExitCode(2) }
        return specs
    }

    /// The specs given, as they are at a git revision, the way `anna diff --base` reads
    /// them. Exits 2 when git cannot read them, or one declares no `version:` or has errors.
    static func loadReleased(at revision: String, paths: [String]) throws -> [TrackingSpec] {
        let sources: [SpecComparison.Source]
        do {
            sources = try SpecComparison.sources(at: revision, paths: paths).0
        } catch let error as SpecComparison.InputError {
            FileHandle.standardError.write(Data("anna-inspect: error: --plan-ref \(revision): \(error.message)\n".utf8))
            throw ExitCode(2)
        }
        if sources.isEmpty {
            FileHandle.standardError.write(Data("anna-inspect: error: --plan-ref \(revision): no spec given exists at that revision\n".utf8))
            throw ExitCode(2)
        }
        var specs: [TrackingSpec] = []
        var failed = false
        for source in sources {
            let (spec, diagnostics) = AnnaGenerator().check(source.bytes, file: source.path)
            for diagnostic in diagnostics where diagnostic.severity == .error { FileHandle.standardError.write(Data("\(diagnostic)\n".utf8)) }
            guard let spec else {
                failed = true
                continue
            }
            if spec.version == nil {
                FileHandle.standardError.write(Data("\(source.path):1:1: error: a released spec must declare its plan's version (version: 1.0.0 at its top) to be checked against\n".utf8))
                failed = true
            }
            specs.append(spec)
        }
        if failed { throw ExitCode(2) }
        return specs
    }

    /// The specs given (files, or folders searched for `*.anna.yml`), validated; exits
    /// 2 with the diagnostics when one has errors.
    static func loadSpecs(_ paths: [String]) throws -> [TrackingSpec] {
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                FileHandle.standardError.write(Data("\(path):1:1: error: no such file or folder; give a tracking spec (*.anna.yml) or a folder holding some\n".utf8))
                throw ExitCode(2)
            }
            if isDirectory.boolValue {
                let found = (FileManager.default.enumerator(atPath: path)?.compactMap { $0 as? String } ?? [])
                    .filter { AnnaGenerator.isSpec($0) && !$0.split(separator: "/").contains { $0.hasPrefix(".") } }
                    .sorted()
                    .map { (path as NSString).appendingPathComponent($0) }
                if found.isEmpty {
                    FileHandle.standardError.write(Data("\(path):1:1: error: no tracking spec (*.anna.yml) in this folder\n".utf8))
                    throw ExitCode(2)
                }
                files += found
            } else {
                files.append(path)
            }
        }
        var specs: [TrackingSpec] = []
        var failed = false
        for file in files {
            do throws(SpecError) {
                let (spec, diagnostics) = AnnaGenerator().check(try AnnaGenerator.read(file), file: file)
                if let spec { specs.append(spec) } else { failed = true }
                for diagnostic in diagnostics where diagnostic.severity == .error {
                    FileHandle.standardError.write(Data("\(diagnostic)\n".utf8))
                }
            } catch {
                for diagnostic in error.diagnostics { FileHandle.standardError.write(Data("\(diagnostic)\n".utf8)) }
                failed = true
            }
        }
        if failed { throw ExitCode(2) }
        return specs
    }
}
#endif
