import ArgumentParser
import Foundation
import _AnnaGeneratorCore
import _AnnaGovernance

struct Privacy: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "privacy",
        abstract: "Lists the personal data the specs collect and prints the App Store privacy manifest entries for it.",
        discussion: """
            Reports every parameter, trait and global property marked pii (traits are by default) or \
            declaring a dataType, its consent category and what each provider profile of the spec \
            receives; then the NSPrivacyCollectedDataTypes entries: each dataType, product \
            interaction for events and screens, the user ID for traits, and other data types for \
            personal data without a dataType. Exit status: 0, or 2 for an invalid spec or bad input.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, plist
    }

    @Argument(help: "Tracking spec files or folders.")
    var paths: [String]

    @Option(help: "text (default), json, or plist (the NSPrivacyCollectedDataTypes entries as a property list).")
    var format: Format = .text

    @Flag(help: "Mark the data used for tracking (NSPrivacyCollectedDataTypeTracking); not by default.")
    var tracking = false

    @Flag(help: "Mark the data not linked to the user's identity; linked by default, as events carry the user id.")
    var notLinked = false

    @Option(help: "A purpose (repeatable): analytics (default), appFunctionality, productPersonalization, developerAdvertising, thirdPartyAdvertising, other.")
    var purpose: [String] = []

    func run() throws {
        var purposeKeys: [String] = []
        for name in purpose.isEmpty ? ["analytics"] : purpose {
            guard let key = PrivacyInventory.purposes.first(where: { $0.name == name })?.key else {
                FileHandle.standardError.write(Data("anna privacy: error: unknown purpose '\(name)'; use \(PrivacyInventory.purposes.map(\.name).joined(separator: ", "))\n".utf8))
                throw ExitCode(2)
            }
            purposeKeys.append(key)
        }
        let specs = try loadSpecs(paths, command: "privacy")
        let inventory = PrivacyInventory(specs: specs)
        switch format {
        case .text:
            print(inventory.text(linked: !notLinked, tracking: tracking, purposes: purposeKeys), terminator: "")
        case .plist:
            print(inventory.plist(linked: !notLinked, tracking: tracking, purposes: purposeKeys), terminator: "")
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(inventory), as: UTF8.self))
        }
    }
}

/// The validated specs of files and folders (searched for `*.anna.yml`), in path
/// order; prints the diagnostics and exits with 2 when one is unreadable or invalid.
func loadSpecs(_ paths: [String], command: String) throws -> [TrackingSpec] {
    var files: [String] = []
    for path in paths {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            FileHandle.standardError.write(Data("anna \(command): error: cannot read \(path); check that it exists and is readable\n".utf8))
            throw ExitCode(2)
        }
        if isDirectory.boolValue {
            let found = (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? [])
                .filter(AnnaGenerator.isSpec).sorted()
            files += found.map { (path as NSString).appendingPathComponent($0) }
        } else {
            files.append(path)
        }
    }
    var specs: [TrackingSpec] = []
    var failed = false
    for file in files {
        do throws(SpecError) {
            let (spec, diagnostics) = AnnaGenerator().check(try AnnaGenerator.read(file), file: file)
            if let spec {
                specs.append(spec)
            } else {
                report(diagnostics.filter { $0.severity == .error })
                failed = true
            }
        } catch {
            report(error.diagnostics)
            failed = true
        }
    }
    if failed { throw ExitCode(2) }
    return specs
}
