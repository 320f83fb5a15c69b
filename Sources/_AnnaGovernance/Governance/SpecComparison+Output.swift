import Foundation
import _AnnaGeneratorCore

extension SpecComparison {
    /// How `anna diff` prints a comparison.
    package enum OutputFormat: String, CaseIterable, Sendable {
        /// `path:line:col: kind: message [rule]` lines and a summary.
        case text
        /// One JSON object: the counts and every change.
        case json
        /// GitHub Actions workflow commands (annotations) and a summary.
        case github
    }
}

extension SpecComparison.Result {
    /// The output; with `--base REV`, GitHub annotations name the repository's files,
    /// not `REV:path`, which GitHub cannot place on a pull request.
    /// - Parameters:
    ///   - format: Text lines, a JSON report, or GitHub workflow commands.
    ///   - revision: The revision the old specs were read at, for `--base`.
    /// - Returns: The whole output, ending in a newline.
    package func rendered(as format: SpecComparison.OutputFormat, revision: String? = nil) -> String {
        let result = self
        switch format {
        case .text:
            var text = ""
            for change in result.changes {
                text += "\(change.location): \(change.kind.rawValue): \(change.message) [\(change.rule)]\(Self.bumpNote(change))\n"
            }
            for finding in result.versionFindings {
                text += "\(finding.location): error: \(finding.message)\n"
            }
            if result.changes.isEmpty {
                text += "anna diff: no changes\n"
            } else {
                text += "anna diff: \(Self.count(result.breakingCount, "breaking change")), \(Self.count(result.compatibleCount, "compatible change")); the smallest version bump: \(Self.bumpWord(result.requiredBump))\n"
            }
            return text
        case .json:
            struct Change: Encodable {
                var change: SpecChange
                func encode(to encoder: any Encoder) throws {
                    try change.encode(to: encoder)
                    var container = encoder.container(keyedBy: Key.self)
                    try container.encode(SpecComparison.Result.bumpWord(change.requiredBump), forKey: .bump)
                }
                enum Key: String, CodingKey { case bump }
            }
            struct Report: Encodable {
                var breaking: Int
                var compatible: Int
                var bump: String
                var changes: [Change]
                var versionErrors: [SpecVersionFinding]
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let report = Report(
                breaking: result.breakingCount, compatible: result.compatibleCount, bump: Self.bumpWord(result.requiredBump),
                changes: result.changes.map(Change.init), versionErrors: result.versionFindings)
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
                text += "::\(command) file=\(Self.escapeProperty(place.file)),line=\(place.line),col=\(place.column),title=\(Self.escapeProperty("\(title) (\(change.rule))"))::\(Self.escapeData(message))\n"
            }
            for finding in result.versionFindings {
                var place = finding.location
                if let revision, place.file.hasPrefix("\(revision):") { place.file.removeFirst(revision.count + 1) }
                text += "::error file=\(Self.escapeProperty(place.file)),line=\(place.line),col=\(place.column),title=\(Self.escapeProperty("Tracking-plan version too low"))::\(Self.escapeData(finding.message))\n"
            }
            text += "anna diff: \(Self.count(result.breakingCount, "breaking change")), \(Self.count(result.compatibleCount, "compatible change"))\n"
            return text
        }
    }

    /// `major`, `minor`, `patch` or `none`: the JSON's and the summary's word for a bump.
    static func bumpWord(_ bump: PlanVersion.Bump) -> String {
        switch bump {
        case .none: "none"
        case .patch: "patch"
        case .minor: "minor"
        case .major: "major"
        }
    }

    /// ` (needs a major version)`, after a change that needs a bump.
    private static func bumpNote(_ change: SpecChange) -> String {
        change.requiredBump == .none ? "" : " (\(bumpWord(change.requiredBump)))"
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    /// GitHub's workflow-command escaping of a message.
    private static func escapeData(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// GitHub's escaping of a property value (also `:` and `,`).
    private static func escapeProperty(_ text: String) -> String {
        Self.escapeData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
