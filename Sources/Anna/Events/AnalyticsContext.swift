import Foundation

/// Where events come from, in the shape of Segment's `context` object.
///
/// Every envelope carries one, and the pipeline gives every envelope the same: the
/// fields live in one immutable shared object, so copying a context (and so an
/// envelope) costs one reference count instead of one per string. Setting a field
/// replaces that object; contexts compare, hash and encode by their fields, as a
/// plain struct of the same fields would.
public struct AnalyticsContext: Sendable, Hashable, Codable {
    /// The app's name, version, build and bundle identifier.
    public var app: App {
        get { storage.fields.app }
        set { update { $0.app = newValue } }
    }
    /// The device's model and manufacturer.
    public var device: Device {
        get { storage.fields.device }
        set { update { $0.device = newValue } }
    }
    /// The operating system's name and version.
    public var os: OperatingSystem {
        get { storage.fields.os }
        set { update { $0.os = newValue } }
    }
    /// The user's locale identifier, e.g. `en_US`.
    public var locale: String {
        get { storage.fields.locale }
        set { update { $0.locale = newValue } }
    }
    /// The time zone identifier, e.g. `Europe/Berlin`.
    public var timezone: String {
        get { storage.fields.timezone }
        set { update { $0.timezone = newValue } }
    }
    /// The library that sent the event: Anna and its version.
    public var library: Library {
        get { storage.fields.library }
        set { update { $0.library = newValue } }
    }

    /// The branch of the tracking plan the app was built from, as Amplitude Ampli's
    /// `plan.branch`: sent with every event that names its plan version
    /// (``AnalyticsEvent/PlanReference``); `nil` (the default) sends none.
    public var planBranch: String? {
        get { storage.fields.planBranch }
        set { update { $0.planBranch = newValue } }
    }

    /// The fields; never mutated once created, so it is shared freely between threads.
    private var storage: Storage

    /// The stored fields, in the order and with the coding keys of the public properties.
    private struct Fields: Sendable, Hashable, Codable {
        var app: App
        var device: Device
        var os: OperatingSystem
        var locale: String
        var timezone: String
        var library: Library
        var planBranch: String?
    }

    private final class Storage: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private mutating func update(_ change: (inout Fields) -> Void) {
        var fields = storage.fields
        change(&fields)
        storage = Storage(fields)
    }

    /// The app an event comes from.
    public struct App: Sendable, Hashable, Codable {
        /// The app's display name.
        public var name: String?
        /// The marketing version, `CFBundleShortVersionString` on Apple platforms.
        public var version: String?
        /// The build number, `CFBundleVersion` on Apple platforms.
        public var build: String?
        /// The bundle identifier.
        public var namespace: String?

        /// Creates app information; every field is optional.
        public init(name: String? = nil, version: String? = nil, build: String? = nil, namespace: String? = nil) {
            self.name = name
            self.version = version
            self.build = build
            self.namespace = namespace
        }
    }

    /// The device an event comes from.
    public struct Device: Sendable, Hashable, Codable {
        /// The hardware model, e.g. `iPhone16,1` or `x86_64`.
        public var model: String?
        /// The manufacturer, e.g. `Apple`.
        public var manufacturer: String?

        /// Creates device information.
        public init(model: String? = nil, manufacturer: String? = nil) {
            self.model = model
            self.manufacturer = manufacturer
        }
    }

    /// The operating system an event comes from.
    public struct OperatingSystem: Sendable, Hashable, Codable {
        /// The system's name, e.g. `iOS` or `Linux`.
        public var name: String
        /// The system's version, e.g. `18.1.0`.
        public var version: String

        /// Creates operating-system information.
        public init(name: String, version: String) {
            self.name = name
            self.version = version
        }
    }

    /// The library that sent an event.
    public struct Library: Sendable, Hashable, Codable {
        /// The library's name.
        public var name: String
        /// The library's version.
        public var version: String

        /// Creates library information.
        public init(name: String, version: String) {
            self.name = name
            self.version = version
        }
    }

    /// This Anna's version, from one place: what its release is tagged with, and what
    /// every event says it was sent by (``anna``: Segment's `context.library.version`,
    /// the vendors' library fields, the collector's `User-Agent`).
    ///
    /// A release changes it together with the dependency lines that quote it (the
    /// README's `.package(url: …, from: …)`, the messages of the trait-gated tools); a
    /// test holds them to it.
    public static let annaVersion = "0.1.0"

    /// Anna's name and version (``annaVersion``) as it reports them in ``library``.
    public static let anna = Library(name: "anna-swift", version: annaVersion)

    /// Creates a context.
    /// - Parameters:
    ///   - app: The app.
    ///   - device: The device.
    ///   - os: The operating system.
    ///   - locale: The locale identifier.
    ///   - timezone: The time zone identifier.
    ///   - library: The library; Anna by default.
    public init(
        app: App = App(),
        device: Device = Device(),
        os: OperatingSystem = OperatingSystem(name: "", version: ""),
        locale: String = "",
        timezone: String = "",
        library: Library = AnalyticsContext.anna
    ) {
        storage = Storage(Fields(app: app, device: device, os: os, locale: locale, timezone: timezone, library: library))
    }

    /// Decodes a context from the same keys as a plain struct of its fields.
    /// - Parameter decoder: The decoder.
    /// - Throws: What the decoder throws for a missing or mistyped field.
    public init(from decoder: any Decoder) throws {
        storage = Storage(try Fields(from: decoder))
    }

    /// Encodes the context's fields, as a plain struct of them would.
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        try storage.fields.encode(to: encoder)
    }

    /// Whether two contexts have equal fields; the same shared fields are equal at once.
    public static func == (lhs: AnalyticsContext, rhs: AnalyticsContext) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }

    /// Hashes the fields, in the order a plain struct of them would.
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) {
        storage.fields.hash(into: &hasher)
    }

    /// The context of the running process: the main bundle's name, version and
    /// identifier, the hardware model, the operating system, locale and time zone.
    public static func current() -> AnalyticsContext {
        let info = Bundle.main.infoDictionary ?? [:]
        let process = ProcessInfo.processInfo
        let version = process.operatingSystemVersion
        return AnalyticsContext(
            app: App(
                name: (info["CFBundleDisplayName"] ?? info["CFBundleName"]) as? String ?? process.processName,
                version: info["CFBundleShortVersionString"] as? String,
                build: info["CFBundleVersion"] as? String,
                namespace: Bundle.main.bundleIdentifier
            ),
            device: Device(model: hardwareModel(), manufacturer: operatingSystemName == "Linux" ? nil : "Apple"),
            os: OperatingSystem(
                name: operatingSystemName,
                version: "\(version.majorVersion).\(version.minorVersion).\(version.patchVersion)"
            ),
            locale: Locale.current.identifier,
            timezone: TimeZone.current.identifier
        )
    }

    private static var operatingSystemName: String {
        #if os(iOS)
        "iOS"
        #elseif os(macOS)
        "macOS"
        #elseif os(tvOS)
        "tvOS"
        #elseif os(watchOS)
        "watchOS"
        #elseif os(visionOS)
        "visionOS"
        #elseif os(Linux)
        "Linux"
        #else
        "unknown"
        #endif
    }

    /// `uname`'s machine field: the model identifier on Apple devices, the CPU
    /// architecture elsewhere.
    private static func hardwareModel() -> String? {
        var system = utsname()
        guard uname(&system) == 0 else { return nil }
        return withUnsafeBytes(of: &system.machine) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
        }
    }
}
