import Foundation
import Testing

/// The privacy manifest shipped with the `Anna` target declares exactly the
/// required-reason APIs its sources call, with Apple's reason codes, and no tracking.
@Suite struct PrivacyManifestTests {
    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/Anna")

    /// Apple's required-reason API categories, the calls that fall in each, and the
    /// reason that fits how Anna uses them.
    static let categories: [(category: String, calls: [String], reason: String)] = [
        ("NSPrivacyAccessedAPICategoryFileTimestamp",
         ["stat(", "fstat(", "lstat(", "fstatat(", "getattrlist(", "creationDate", "modificationDate",
          ".contentModificationDateKey", "attributesOfItem("], "C617.1"),
        ("NSPrivacyAccessedAPICategorySystemBootTime", ["systemUptime", "mach_absolute_time("], "35F9.1"),
        ("NSPrivacyAccessedAPICategoryDiskSpace",
         ["statfs(", "statvfs(", "volumeAvailableCapacity", "systemFreeSize"], "E174.1"),
        ("NSPrivacyAccessedAPICategoryUserDefaults", ["UserDefaults"], "CA92.1"),
    ]

    func manifest() throws -> [String: Any] {
        let data = try Data(contentsOf: Self.sources.appendingPathComponent("PrivacyInfo.xcprivacy"))
        return try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
    }

    /// Source text without comments, so a doc comment naming an API does not count.
    func code() throws -> String {
        let files = try #require(FileManager.default.enumerator(at: Self.sources, includingPropertiesForKeys: nil))
        var code = ""
        for case let file as URL in files where file.pathExtension == "swift" {
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                let text = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                code += text + "\n"
            }
        }
        return code
    }

    @Test func declaresExactlyTheRequiredReasonAPIsTheRuntimeCalls() throws {
        let manifest = try manifest()
        let declared = try #require(manifest["NSPrivacyAccessedAPITypes"] as? [[String: Any]])
        var reasons: [String: [String]] = [:]
        for entry in declared {
            let category = try #require(entry["NSPrivacyAccessedAPIType"] as? String)
            reasons[category] = try #require(entry["NSPrivacyAccessedAPITypeReasons"] as? [String])
        }
        let code = try code()
        for (category, calls, reason) in Self.categories {
            let used = calls.filter { code.contains($0) }
            if used.isEmpty {
                #expect(reasons[category] == nil, "\(category) is declared but no source calls it")
            } else {
                #expect(reasons[category] == [reason], "\(category): the sources call \(used)")
            }
        }
        #expect(Set(reasons.keys).isSubset(of: Self.categories.map(\.category)))
    }

    @Test func declaresNoTrackingAndNoCollectedData() throws {
        let manifest = try manifest()
        #expect(manifest["NSPrivacyTracking"] as? Bool == false)
        #expect((manifest["NSPrivacyTrackingDomains"] as? [String])?.isEmpty == true)
        #expect((manifest["NSPrivacyCollectedDataTypes"] as? [Any])?.isEmpty == true)
    }

    @Test func isARuntimeResource() throws {
        let package = try String(
            contentsOf: Self.sources.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Package.swift"),
            encoding: .utf8)
        #expect(package.contains(#"resources: [.copy("PrivacyInfo.xcprivacy")]"#))
    }
}
