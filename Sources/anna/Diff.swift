import ArgumentParser
import Foundation
import _AnnaGeneratorCore
import _AnnaGovernance

struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Classifies the changes between two versions of tracking specs as breaking or compatible.",
        discussion: """
            anna diff OLD NEW compares two spec files, or two folders whose specs are paired by \
            relative path. anna diff --base REV PATH... compares each spec file or folder with \
            its version at git revision REV. Exit status: 0 no breaking change, 1 breaking \
            changes (unless --allow-breaking), 2 an invalid spec or bad input.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, github
    }

    @Argument(help: "OLD and NEW (files or folders), or with --base the paths to compare.")
    var paths: [String]

    @Option(help: "Compare the paths with their versions at this git revision.")
    var base: String?

    @Option(help: "text (default), json, or github (GitHub Actions annotations).")
    var format: Format = .text

    @Flag(help: "Exit 0 even when a change is breaking.")
    var allowBreaking = false

    func run() throws {
        let old: [SpecComparison.Source]
        let new: [SpecComparison.Source]
        do {
            if let base {
                guard !paths.isEmpty else { throw InputError("give the spec files or folders to compare with \(base)") }
                (old, new) = try Self.sources(at: base, paths: paths)
            } else {
                guard paths.count == 2 else {
                    throw InputError("give OLD and NEW (two spec files or two folders), or --base REV and the paths")
                }
                (old, new) = try Self.sources(old: paths[0], new: paths[1])
            }
        } catch let error as InputError {
            FileHandle.standardError.write(Data("anna diff: error: \(error.message)\n".utf8))
            throw ExitCode(2)
        }
        let result = SpecComparison().compare(old: old, new: new)
        guard result.errors.isEmpty else {
            report(result.errors)
            FileHandle.standardError.write(Data("anna diff: error: a compared spec is invalid; fix it (anna lint) and run the diff again\n".utf8))
            throw ExitCode(2)
        }
        print(Self.render(result, format: format, revision: base), terminator: "")
        if result.breakingCount > 0 && !allowBreaking { throw ExitCode.failure }
    }

    struct InputError: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    // MARK: Output

    /// The output; with `--base REV`, GitHub annotations name the repository's files,
    /// not `REV:path`, which GitHub cannot place on a pull request.
    static func render(_ result: SpecComparison.Result, format: Format, revision: String? = nil) -> String {
        switch format {
        case .text:
            var text = ""
            for change in result.changes {
                text += "\(change.location): \(change.kind.rawValue): \(change.message) [\(change.rule)]\n"
            }
            if result.changes.isEmpty {
                text += "anna diff: no changes\n"
            } else {
                text += "anna diff: \(count(result.breakingCount, "breaking change")), \(count(result.compatibleCount, "compatible change"))\n"
            }
            return text
        case .json:
            struct Report: Encodable {
                var breaking: Int
                var compatible: Int
                var changes: [SpecChange]
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let report = Report(breaking: result.breakingCount, compatible: result.compatibleCount, changes: result.changes)
            let data = (try? encoder.encode(report)) ?? Data("{}".utf8)
            return String(decoding: data, as: UTF8.self) + "\n"
        case .github:
            var text = ""
            for change in result.changes {
                let command = change.kind == .breaking ? "error" : "notice"
                let title = change.kind == .breaking ? "Breaking tracking-plan change" : "Tracking-plan change"
                // A removal sits in the old spec: annotate the new one at the removed
                // item's parent, and say where it was.
                var place = change.reviewLocation ?? change.location
                var message = change.message
                if change.reviewLocation != nil { message += " (was at \(change.location))" }
                if let revision, place.file.hasPrefix("\(revision):") { place.file.removeFirst(revision.count + 1) }
                text += "::\(command) file=\(escapeProperty(place.file)),line=\(place.line),col=\(place.column),title=\(escapeProperty("\(title) (\(change.rule))"))::\(escapeData(message))\n"
            }
            text += "anna diff: \(count(result.breakingCount, "breaking change")), \(count(result.compatibleCount, "compatible change"))\n"
            return text
        }
    }

    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    /// GitHub's workflow-command escaping of a message.
    static func escapeData(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// GitHub's escaping of a property value (also `:` and `,`).
    static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }

    // MARK: Sources

    /// Two files, or two folders.
    static func sources(old: String, new: String) throws -> ([SpecComparison.Source], [SpecComparison.Source]) {
        let oldIsFolder = isFolder(old)
        let newIsFolder = isFolder(new)
        guard oldIsFolder == newIsFolder else {
            throw InputError("compare two spec files or two folders, not a file with a folder (\(old), \(new))")
        }
        if !oldIsFolder {
            return ([try file(old, key: "spec")], [try file(new, key: "spec")])
        }
        return (try folder(old), try folder(new))
    }

    static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    static func file(_ path: String, key: String) throws -> SpecComparison.Source {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InputError("cannot read \(path); check that it exists and is readable")
        }
        return SpecComparison.Source(key: key, path: path, bytes: [UInt8](data))
    }

    /// The specs under a folder, keyed by their path relative to it.
    static func folder(_ path: String) throws -> [SpecComparison.Source] {
        guard let enumerator = FileManager.default.enumerator(atPath: path) else {
            throw InputError("cannot read the folder \(path)")
        }
        var sources: [SpecComparison.Source] = []
        while let relative = enumerator.nextObject() as? String {
            guard AnnaGenerator.isSpec(relative) else { continue }
            sources.append(try file((path as NSString).appendingPathComponent(relative), key: relative))
        }
        return sources.sorted { $0.key < $1.key }
    }

    /// Each path now and at a git revision.
    static func sources(at revision: String, paths: [String]) throws -> ([SpecComparison.Source], [SpecComparison.Source]) {
        var old: [SpecComparison.Source] = []
        var new: [SpecComparison.Source] = []
        for path in paths {
            if isFolder(path) {
                let current = try folder(path).map { source in
                    SpecComparison.Source(key: "\(path)/\(source.key)", path: source.path, bytes: source.bytes)
                }
                new += current
                let listed = try git(["ls-tree", "-r", "--name-only", revision, "."], in: path)
                for relative in String(decoding: listed, as: UTF8.self).split(separator: "\n").map(String.init)
                where AnnaGenerator.isSpec(relative) {
                    let bytes = try git(["show", "\(revision):./\(relative)"], in: path)
                    old.append(SpecComparison.Source(key: "\(path)/\(relative)", path: "\(revision):\((path as NSString).appendingPathComponent(relative))", bytes: [UInt8](bytes)))
                }
            } else {
                new.append(try file(path, key: path))
                let directory = (path as NSString).deletingLastPathComponent
                let name = (path as NSString).lastPathComponent
                // A spec the revision does not have is new: compared with nothing.
                if let bytes = try? git(["show", "\(revision):./\(name)"], in: directory.isEmpty ? "." : directory) {
                    old.append(SpecComparison.Source(key: path, path: "\(revision):\(path)", bytes: [UInt8](bytes)))
                } else {
                    _ = try git(["rev-parse", "--verify", "--quiet", "\(revision)^{commit}"], in: directory.isEmpty ? "." : directory)
                }
            }
        }
        return (old, new)
    }

    /// Runs git in a folder and returns its output; its error message on failure.
    static func git(_ arguments: [String], in directory: String) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw InputError("cannot run git for --base: \(error.localizedDescription)")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let detail = message.trimmingCharacters(in: .whitespacesAndNewlines)
            throw InputError("git \(arguments.joined(separator: " ")) failed in \(directory): \(detail.isEmpty ? "exit \(process.terminationStatus)" : detail)")
        }
        return data
    }
}
