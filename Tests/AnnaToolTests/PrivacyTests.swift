import Foundation
import Testing

/// `anna privacy`: the inventory in three formats, the manifest entries read back as a
/// property list, and the input errors. `ANNA_RECORD_GOLDEN=1` rewrites the expected files.
@Suite struct PrivacyTests {
    static let folder = AnnaTool.fixtures.appending(path: "privacy", directoryHint: .isDirectory)

    @Test(arguments: [("text", "expected.txt"), ("json", "expected.json"), ("plist", "expected.plist")])
    func inventoryFormats(_ format: String, _ expectedFile: String) throws {
        let result = try AnnaTool.run(["privacy", "account.anna.yml", "--format", format], in: Self.folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "")
        try DiffTests.expect(result.stdout, matches: Self.folder.appending(path: expectedFile))
    }

    @Test func theManifestEntriesAreAPropertyListAppleReads() throws {
        let result = try AnnaTool.run(
            ["privacy", "account.anna.yml", "--format", "plist", "--tracking", "--purpose", "analytics", "--purpose", "appFunctionality"],
            in: Self.folder)
        #expect(result.status == 0)
        let plist = try PropertyListSerialization.propertyList(from: Data(result.stdout.utf8), format: nil) as? [String: Any]
        let entries = try #require(plist?["NSPrivacyCollectedDataTypes"] as? [[String: Any]])
        #expect(entries.compactMap { $0["NSPrivacyCollectedDataType"] as? String } == [
            "NSPrivacyCollectedDataTypeName", "NSPrivacyCollectedDataTypeEmailAddress", "NSPrivacyCollectedDataTypePhoneNumber",
            "NSPrivacyCollectedDataTypePreciseLocation", "NSPrivacyCollectedDataTypeCoarseLocation", "NSPrivacyCollectedDataTypeUserID",
            "NSPrivacyCollectedDataTypePurchaseHistory", "NSPrivacyCollectedDataTypeProductInteraction",
            "NSPrivacyCollectedDataTypeOtherDataTypes",
        ])
        for entry in entries {
            #expect(entry["NSPrivacyCollectedDataTypeLinked"] as? Bool == true)
            #expect(entry["NSPrivacyCollectedDataTypeTracking"] as? Bool == true)
            #expect(entry["NSPrivacyCollectedDataTypePurposes"] as? [String] == [
                "NSPrivacyCollectedDataTypePurposeAnalytics", "NSPrivacyCollectedDataTypePurposeAppFunctionality",
            ])
        }
        let unlinked = try AnnaTool.run(["privacy", "account.anna.yml", "--format", "plist", "--not-linked"], in: Self.folder)
        #expect(unlinked.stdout.contains("<key>NSPrivacyCollectedDataTypeLinked</key>\n\t\t\t<false/>"))
        #expect(!unlinked.stdout.contains("<true/>"))
    }

    /// The README's rule (Apple's key without the prefix, first letter lowercased)
    /// gives `photosorVideos`, as Apple spells `NSPrivacyCollectedDataTypePhotosorVideos`;
    /// `photosOrVideos` stays accepted for the same type.
    @Test(arguments: ["photosorVideos", "photosOrVideos"])
    func photosOrVideosIsSpelledAsAppleSpellsIt(_ name: String) throws {
        let root = try AnnaTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try """
            anna: 1
            events:
              photoShared:
                parameters:
                  photo: { type: string, dataType: \(name) }
            """.write(to: root.appending(path: "photos.anna.yml"), atomically: true, encoding: .utf8)
        let result = try AnnaTool.run(["privacy", "photos.anna.yml", "--format", "plist"], in: root)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("<string>NSPrivacyCollectedDataTypePhotosorVideos</string>"))
    }

    @Test func theExampleDeclaresADataTypeForAllItsPersonalData() throws {
        let spec = AnnaTool.packageRoot.appending(path: "Examples/Shop/Sources/ShopAnalytics").path
        let result = try AnnaTool.run(["privacy", spec])
        #expect(result.status == 0)
        #expect(!result.stdout.contains("without a dataType"))
        #expect(result.stdout.contains("  NSPrivacyCollectedDataTypeEmailAddress  from traits.email\n"))
    }

    @Test func personalDataInsideObjectTypesIsListedWhereverTheTypeIsSent() throws {
        let spec = AnnaTool.packageRoot.appending(path: "Tests/AnnaGeneratorTests/Fixtures/Valid/objects.anna.yml").path
        let result = try AnnaTool.run(["privacy", spec, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let items = try #require(json["items"] as? [[String: Any]])
        let shipping = try #require(items.first { $0["path"] as? String == "events.Purchase Made.parameters.shipping.street" })
        #expect(shipping["kind"] as? String == "object property" && shipping["pii"] as? Bool == true)
        #expect(shipping["dataType"] as? String == "physicalAddress")
        #expect(shipping["line"] as? Int == 26 && shipping["column"] as? Int == 7, "at the property, in types:")
        #expect(items.contains { $0["path"] as? String == "events.Purchase Made.parameters.products.brand.origin.street" })
        let types = try #require(json["collectedTypes"] as? [[String: Any]])
        #expect(types.contains { $0["type"] as? String == "NSPrivacyCollectedDataTypePhysicalAddress" })
    }

    @Test func badInputExitsTwoWithALocatedError() throws {
        let root = try AnnaTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try "anna: 1\nevents:\n  opened:\n    parameters:\n      email: { type: string, dataType: e-mail }\n"
            .write(to: root.appending(path: "bad.anna.yml"), atomically: true, encoding: .utf8)
        let invalid = try AnnaTool.run(["privacy", "bad.anna.yml"], in: root)
        #expect(invalid.status == 2)
        #expect(invalid.stdout == "")
        #expect(invalid.stderr.hasPrefix("bad.anna.yml:5:40: error: unknown dataType 'e-mail' for parameter 'email' of event 'opened'"))
        let missing = try AnnaTool.run(["privacy", "gone.anna.yml"], in: root)
        #expect(missing.status == 2)
        #expect(missing.stderr == "anna privacy: error: cannot read gone.anna.yml; check that it exists and is readable\n")
        let purpose = try AnnaTool.run(["privacy", "account.anna.yml", "--purpose", "ads"], in: Self.folder)
        #expect(purpose.status == 2)
        #expect(purpose.stderr.hasPrefix("anna privacy: error: unknown purpose 'ads'; use thirdPartyAdvertising, "))
    }
}
