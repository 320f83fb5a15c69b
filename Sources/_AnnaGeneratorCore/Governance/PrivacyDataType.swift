/// Apple's collected data types (App Store privacy manifest, `NSPrivacyCollectedDataType`),
/// by the short names a spec's `dataType:` uses.
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
        ("photosOrVideos", "PhotosorVideos", "User Content"),
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

    /// `emailAddress` → `NSPrivacyCollectedDataTypeEmailAddress`; `nil` for an unknown name.
    package static func manifestKey(for name: String) -> String? {
        all.first { $0.name == name }.map { "NSPrivacyCollectedDataType" + $0.key }
    }
}
