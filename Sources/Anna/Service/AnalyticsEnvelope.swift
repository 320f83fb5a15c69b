import Foundation

/// An event as the service delivers it to providers: the event with the facts the
/// pipeline adds to it.
///
/// The message id and timestamp are fixed when the service takes the event in and
/// never change afterwards, through retries and restarts, so a collector can drop
/// duplicates by ``messageID``.
public struct AnalyticsEnvelope: Sendable, Hashable, Codable {
    /// The event. Providers receive it with their mapper's names and with PII
    /// removed or hashed unless they declare that they may receive it.
    public var event: AnalyticsEvent
    /// A unique, time-ordered identifier (UUID version 7).
    public var messageID: UUID
    /// When the event was reported.
    public var timestamp: Date
    /// The session the event belongs to: the start of the session, in milliseconds
    /// since 1970, as Amplitude and Mixpanel count sessions.
    public var sessionID: Int64
    /// An identifier of the installation that does not identify the person.
    public var anonymousID: String
    /// The identifier the app gave with ``AnalyticsService/identify(userID:)``, if any.
    public var userID: String?
    /// The app, device, operating system and library the event comes from.
    public var context: AnalyticsContext

    /// Creates an envelope.
    /// - Parameters:
    ///   - event: The event.
    ///   - messageID: A unique identifier.
    ///   - timestamp: When the event was reported.
    ///   - sessionID: The start of its session in milliseconds since 1970.
    ///   - anonymousID: The installation's anonymous identifier.
    ///   - userID: The user's identifier, if known.
    ///   - context: Where the event comes from.
    public init(
        event: AnalyticsEvent,
        messageID: UUID,
        timestamp: Date,
        sessionID: Int64 = 0,
        anonymousID: String = "",
        userID: String? = nil,
        context: AnalyticsContext = AnalyticsContext()
    ) {
        self.event = event
        self.messageID = messageID
        self.timestamp = timestamp
        self.sessionID = sessionID
        self.anonymousID = anonymousID
        self.userID = userID
        self.context = context
    }
}

/// Where events come from, in the shape of Segment's `context` object.
public struct AnalyticsContext: Sendable, Hashable, Codable {
    /// The app's name, version, build and bundle identifier.
    public var app: App
    /// The device's model and manufacturer.
    public var device: Device
    /// The operating system's name and version.
    public var os: OperatingSystem
    /// The user's locale identifier, e.g. `en_US`.
    public var locale: String
    /// The time zone identifier, e.g. `Europe/Berlin`.
    public var timezone: String
    /// The library that sent the event: Anna and its version.
    public var library: Library

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

    /// Anna's name and version as it reports them in ``library``.
    public static let anna = Library(name: "anna-swift", version: "0.1.0")

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
        self.app = app
        self.device = device
        self.os = os
        self.locale = locale
        self.timezone = timezone
        self.library = library
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
