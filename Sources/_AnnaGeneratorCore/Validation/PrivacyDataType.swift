/// Apple's collected data types (App Store privacy manifest, `NSPrivacyCollectedDataType`),
/// by the short names a spec's `dataType:` uses: Apple's key without the prefix, its
/// first letter lowercased, spelled as Apple spells it (`photosorVideos`).
package enum PrivacyDataType {
    /// `(short name, Apple's key, category)` in Apple's order.
    package static let all: [(name: String, key: String, category: String)] = [
        ("name", "Name", "Contact Info"),
        ("emailAddress", "EmailAddress", "Contact Info"),
        ("phoneNumber", "PhoneNumber", "Contact Info"),
        ("physicalAddress", "PhysicalAddress", "Contact Info"),
        ("otherUserContactInfo", "OtherUserContactInfo", "Contact Info"),
        ("health", "Health", "Health & Fitness"),
        ("fitness", "Fitness", "Health & Fitness"),
        ("paymentInfo", "PaymentInfo", "Financial Info"),
        ("creditInfo", "CreditInfo", "Financial Info"),
        ("otherFinancialInfo", "OtherFinancialInfo", "Financial Info"),
        ("preciseLocation", "PreciseLocation", "Location"),
        ("coarseLocation", "CoarseLocation", "Location"),
        ("sensitiveInfo", "SensitiveInfo", "Sensitive Info"),
        ("contacts", "Contacts", "Contacts"),
        ("emailsOrTextMessages", "EmailsOrTextMessages", "User Content"),
        ("photosorVideos", "PhotosorVideos", "User Content"),
        ("audioData", "AudioData", "User Content"),
        ("gameplayContent", "GameplayContent", "User Content"),
        ("customerSupport", "CustomerSupport", "User Content"),
        ("otherUserContent", "OtherUserContent", "User Content"),
        ("browsingHistory", "BrowsingHistory", "Browsing History"),
        ("searchHistory", "SearchHistory", "Search History"),
        ("userID", "UserID", "Identifiers"),
        ("deviceID", "DeviceID", "Identifiers"),
        ("purchaseHistory", "PurchaseHistory", "Purchases"),
        ("productInteraction", "ProductInteraction", "Usage Data"),
        ("advertisingData", "AdvertisingData", "Usage Data"),
        ("otherUsageData", "OtherUsageData", "Usage Data"),
        ("crashData", "CrashData", "Diagnostics"),
        ("performanceData", "PerformanceData", "Diagnostics"),
        ("otherDiagnosticData", "OtherDiagnosticData", "Diagnostics"),
        ("environmentScanning", "EnvironmentScanning", "Surroundings"),
        ("hands", "Hands", "Body"),
        ("head", "Head", "Body"),
        ("otherDataTypes", "OtherDataTypes", "Other Data"),
    ]

    /// The short names, in Apple's order.
    package static let names = all.map(\.name)

    /// Other spellings accepted for a short name: `photosOrVideos`, as Apple's
    /// documentation titles it, for `photosorVideos`, as its key spells it.
    package static let aliases = ["photosOrVideos": "photosorVideos"]

    /// The short name `name` stands for (itself, or the name an alias stands for);
    /// `nil` for an unknown name.
    package static func canonicalName(for name: String) -> String? {
        let resolved = aliases[name] ?? name
        return all.contains { $0.name == resolved } ? resolved : nil
    }

    /// `emailAddress` → `NSPrivacyCollectedDataTypeEmailAddress`; `nil` for an unknown name.
    package static func manifestKey(for name: String) -> String? {
        guard let name = canonicalName(for: name) else { return nil }
        return all.first { $0.name == name }.map { "NSPrivacyCollectedDataType" + $0.key }
    }
}
