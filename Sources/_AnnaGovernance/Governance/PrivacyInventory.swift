import AnnaRules
import _AnnaGeneratorCore

/// What `anna privacy` reports: the personal data the specs collect, where it goes,
/// and the App Store privacy manifest entries for it.
package struct PrivacyInventory: Sendable, Codable {
    /// One parameter, trait or global that is personal data or declares a `dataType`.
    package struct Item: Sendable, Codable, Hashable {
        /// `events.signedUp.parameters.email`, `traits.email`; inside an object,
        /// `events.orderCompleted.parameters.shipping.street`.
        package var path: String
        /// `parameter`, `screen parameter`, `trait`, `group trait`, `global`, or
        /// `object property` for a property inside a value of an object type.
        package var kind: String
        /// Marked `pii` (traits are by default).
        package var pii: Bool
        /// `dataType:`, Apple's collected data type by its short name.
        package var dataType: String?
        /// The consent category it is collected under.
        package var consent: String
        /// For each provider profile of the spec, what it receives.
        package var providers: [Delivery]
        /// The spec file.
        package var file: String
        /// Where it is declared.
        package var line: Int
        package var column: Int
    }

    /// What one provider receives of an item.
    package struct Delivery: Sendable, Codable, Hashable {
        /// The profile's name.
        package var provider: String
        /// `sent`, or for PII `removed unless receivesPII` (the app's `ProviderOptions`; hashed instead with `piiHandling: .hash(salt:)`).
        package var handling: String
    }

    /// One `NSPrivacyCollectedDataTypes` entry and what makes it collected.
    package struct CollectedType: Sendable, Codable, Hashable {
        /// `NSPrivacyCollectedDataTypeEmailAddress`.
        package var type: String
        /// The items (or `events`, `traits`) that collect it.
        package var from: [String]
    }

    /// Personal data and items with a data type, in spec and file order.
    package var items: [Item] = []
    /// The manifest's collected data types, in Apple's order.
    package var collectedTypes: [CollectedType] = []
    /// Personal data without a `dataType`: counted under `otherDataTypes` until it has one.
    package var unclassified: [String] = []

    /// The inventory of validated specs.
    package init(specs: [TrackingSpec]) {
        var sources: [String: [String]] = [:]
        func collect(_ name: String, from source: String) {
            sources[name, default: []].append(source)
        }
        for spec in specs {
            let prefix = specs.count > 1 ? "\(spec.baseName):" : ""
            for (section, word, events) in [("events", "parameter", spec.events), ("screens", "screen parameter", spec.screens)] {
                if !events.isEmpty { collect("productInteraction", from: "\(prefix)\(section) (\(events.count))") }
                for event in events {
                    for parameter in event.parameters {
                        add(parameter, path: "\(prefix)\(section).\(event.name).parameters.\(parameter.name)", kind: word, consent: event.consent, spec: spec, collect: collect)
                    }
                }
            }
            if !spec.traits.isEmpty || !spec.groupTraits.isEmpty {
                // Traits are sent with identify and group, which carry the user id.
                collect("userID", from: "\(prefix)\(spec.traits.isEmpty ? "groupTraits" : "traits") (identify)")
            }
            for (section, word, properties) in [("traits", "trait", spec.traits), ("groupTraits", "group trait", spec.groupTraits), ("globals", "global", spec.globals)] {
                for property in properties {
                    add(property, path: "\(prefix)\(section).\(property.name)", kind: word, consent: "analytics", spec: spec, collect: collect)
                }
            }
        }
        if !unclassified.isEmpty { sources["otherDataTypes", default: []] += unclassified }
        collectedTypes = PrivacyDataType.names.compactMap { name in
            guard let from = sources[name], let key = PrivacyDataType.manifestKey(for: name) else { return nil }
            return CollectedType(type: key, from: from)
        }
    }

    private mutating func add(
        _ parameter: TrackingSpec.Parameter, path: String, kind: String, consent: String, spec: TrackingSpec,
        collect: (String, String) -> Void
    ) {
        defer {
            // The properties of an object type are collected wherever a value of it is sent:
            // `events.orderCompleted.parameters.products.email`.
            if case .object(let name) = parameter.type.base, let object = spec.objects.first(where: { $0.name == name }) {
                for property in object.properties {
                    add(property, path: "\(path).\(property.name)", kind: "object property", consent: consent, spec: spec, collect: collect)
                }
            }
        }
        guard parameter.isPII || parameter.dataType != nil else { return }
        let handling = parameter.isPII ? "removed unless receivesPII" : "sent"
        items.append(Item(
            path: path, kind: kind, pii: parameter.isPII, dataType: parameter.dataType, consent: consent,
            providers: spec.providers.map { Delivery(provider: $0.name, handling: handling) },
            file: parameter.location.file, line: parameter.location.line, column: parameter.location.column))
        if let dataType = parameter.dataType {
            collect(dataType, path)
        } else {
            unclassified.append(path)
        }
    }

    // MARK: Output

    /// The table `anna privacy` prints.
    package func text(linked: Bool, tracking: Bool, purposes: [String]) -> String {
        var text = ""
        if items.isEmpty {
            text += "No parameter, trait or global is personal data or declares a dataType.\n"
        } else {
            let header = ["item", "kind", "pii", "dataType", "consent", "providers"]
            let rows = items.map { item in
                [
                    item.path, item.kind, item.pii ? "yes" : "no", item.dataType ?? "-", item.consent,
                    item.providers.isEmpty ? "-" : item.providers.map { "\($0.provider): \($0.handling)" }.joined(separator: "; "),
                ]
            }
            text += Self.table([header] + rows)
        }
        text += "\nCollected data types (NSPrivacyCollectedDataTypes; linked \(linked), tracking \(tracking), purposes \(purposes.joined(separator: ", "))):\n"
        if collectedTypes.isEmpty { text += "  none\n" }
        for collected in collectedTypes {
            text += "  \(collected.type)  from \(collected.from.joined(separator: ", "))\n"
        }
        if !unclassified.isEmpty {
            text += "\nPersonal data without a dataType, declared as NSPrivacyCollectedDataTypeOtherDataTypes: give each a dataType:\n"
            for path in unclassified { text += "  \(path)\n" }
        }
        return text
    }

    /// Columns padded to their widest cell.
    static func table(_ rows: [[String]]) -> String {
        var widths = [Int](repeating: 0, count: rows.map(\.count).max() ?? 0)
        for row in rows {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }

    /// The manifest's `NSPrivacyCollectedDataTypes`, as a property list document with
    /// that one key, to merge into the app's `PrivacyInfo.xcprivacy`.
    package func plist(linked: Bool, tracking: Bool, purposes: [String]) -> String {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>NSPrivacyCollectedDataTypes</key>
            \t<array>

            """
        for collected in collectedTypes {
            text += """
                \t\t<dict>
                \t\t\t<key>NSPrivacyCollectedDataType</key>
                \t\t\t<string>\(collected.type)</string>
                \t\t\t<key>NSPrivacyCollectedDataTypeLinked</key>
                \t\t\t<\(linked)/>
                \t\t\t<key>NSPrivacyCollectedDataTypeTracking</key>
                \t\t\t<\(tracking)/>
                \t\t\t<key>NSPrivacyCollectedDataTypePurposes</key>
                \t\t\t<array>

                """
            for purpose in purposes { text += "\t\t\t\t<string>\(purpose)</string>\n" }
            text += "\t\t\t</array>\n\t\t</dict>\n"
        }
        text += "\t</array>\n</dict>\n</plist>\n"
        return text
    }

    /// Apple's purpose keys by the short names `--purpose` takes.
    package static let purposes: [(name: String, key: String)] = [
        ("thirdPartyAdvertising", "NSPrivacyCollectedDataTypePurposeThirdPartyAdvertising"),
        ("developerAdvertising", "NSPrivacyCollectedDataTypePurposeDeveloperAdvertising"),
        ("analytics", "NSPrivacyCollectedDataTypePurposeAnalytics"),
        ("productPersonalization", "NSPrivacyCollectedDataTypePurposeProductPersonalization"),
        ("appFunctionality", "NSPrivacyCollectedDataTypePurposeAppFunctionality"),
        ("other", "NSPrivacyCollectedDataTypePurposeOther"),
    ]
}
