import Foundation
import _AnnaGeneratorCore

extension SpecComparison {
    /// Input `anna diff` cannot compare: its message says what to give instead.
    package struct InputError: Error, CustomStringConvertible {
        /// What is wrong and what to do.
        package var message: String
        package init(_ message: String) { self.message = message }
        package var description: String { message }
    }

    /// Two files, or two folders.
    /// - Throws: ``InputError`` when they are one of each, or cannot be read.
    package static func sources(old: String, new: String) throws -> ([SpecComparison.Source], [SpecComparison.Source]) {
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

    /// Each path now and at a git revision (git runs in each path's folder).
    /// - Throws: ``InputError`` when a file cannot be read or git fails.
    package static func sources(at revision: String, paths: [String]) throws -> ([SpecComparison.Source], [SpecComparison.Source]) {
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
