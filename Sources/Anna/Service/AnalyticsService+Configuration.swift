import Foundation
import Logging

extension AnalyticsService {
    /// How a service collects, checks and enriches events.
    public struct Configuration: Sendable {
        /// The consent categories granted when the service starts. `necessary` and
        /// `analytics` by default; `marketing` and custom categories need a grant.
        public var grantedConsent: Set<ConsentCategory>
        /// What happens to events whose values break their spec's constraints.
        public var violationPolicy: ViolationPolicy
        /// Stages that run on the service's pipeline, in order within their phase.
        public var stages: [any AnalyticsStage]
        /// Where the events come from; ``AnalyticsContext/current()`` by default.
        public var context: AnalyticsContext
        /// The installation's anonymous identifier. `nil` (the default) takes the one the
        /// identity store keeps, created once at the first launch; a value given here is
        /// used instead.
        public var anonymousID: String?
        /// Where the service keeps its state across launches (``StoredIdentity``): the
        /// anonymous id, user id and traits, consent and opt-out, the session, the app
        /// version seen last and persisted global properties, in `identity.json`.
        ///
        /// On Apple platforms `Application Support/Anna` by default (inside the app's
        /// container; on macOS under a folder named after the bundle identifier). `nil`
        /// elsewhere (Linux, tests): the state then lives in memory; give a directory to
        /// keep it. An App Group's container lets an app and its extensions share it.
        public var storageDirectory: URL?
        /// The store of that state, when it is not `identity.json` in
        /// ``storageDirectory``: your own ``IdentityStore`` (UserDefaults of an App Group),
        /// or a ``MemoryIdentityStore``. Wins over ``storageDirectory``.
        public var identityStore: (any IdentityStore)?
        /// The app's lifecycle, which the service follows: it flushes in a background
        /// window when the app goes to the background, releases what providers hold
        /// before suspension, and flushes before termination. `nil` by default: on Apple
        /// platforms pass `.platform` from AnnaApple (`import AnnaApple`), which follows
        /// the application's notifications in an app and its host's in an app extension;
        /// elsewhere an ``AppLifecycle`` you drive.
        public var lifecycle: AppLifecycle?
        /// How long the service waits for its flush when the app is about to terminate
        /// (``AppLifecycleEvent/willTerminate``), on the thread that sent it. 2 seconds by
        /// default: iOS gives an app about 5 seconds there.
        public var terminationFlushTimeout: Duration
        /// Whether the service reports Segment's lifecycle events: `Application
        /// Installed`, `Application Updated`, `Application Opened` and `Application
        /// Backgrounded`. Off by default.
        public var tracksLifecycleEvents: Bool
        /// A session ends after this much time without events.
        public var sessionTimeout: Duration
        /// Receives provider failures, constraint violations and provider-limit
        /// changes. Called on the service's threads; keep it short.
        public var errorHandler: (@Sendable (AnalyticsError) -> Void)?
        /// The logger for Anna's own messages. They name events, parameters and
        /// constraints, never values.
        public var logger: Logger
        /// What the service holds between `report` and the provider lanes: events not yet
        /// taken by the pipeline or being processed by it. 10,000 events or 8 MiB by
        /// default. Beyond it `report` drops the event and counts it (``DropReason/overflow``).
        public var intakeLimit: MemoryLimit
        /// What each provider's lane holds while its provider is busy. 10,000 events or
        /// 8 MiB by default. Beyond it the lane drops the newest events for that provider
        /// only, counts them (``AnalyticsMetrics/overflowed``) and reports them
        /// (``AnalyticsError/Code/providerOverflow``).
        public var providerLimit: MemoryLimit
        /// How long a lane may go without progress and still pace the pipeline
        /// (``LanePacing``), in nanoseconds; tests shorten or lengthen it.
        var lanePatience: UInt64 = LanePacing.patience

        /// Creates a configuration.
        /// - Parameters:
        ///   - grantedConsent: Categories granted at start.
        ///   - violationPolicy: What happens to events that break constraints.
        ///   - stages: Your own pipeline stages.
        ///   - context: Where the events come from.
        ///   - anonymousID: The installation's anonymous identifier; the stored one by default.
        ///   - sessionTimeout: Inactivity after which a new session starts.
        ///   - errorHandler: Receives failures and violations.
        ///   - logger: The logger for Anna's own messages.
        ///   - intakeLimit: What the service holds before the provider lanes.
        ///   - providerLimit: What each provider's lane holds.
        ///   - storageDirectory: Where the service keeps its state across launches.
        ///   - identityStore: A store of that state of your own.
        ///   - lifecycle: The app's lifecycle; none by default (AnnaApple's `.platform` on Apple platforms).
        ///   - tracksLifecycleEvents: Whether to report Segment's lifecycle events.
        ///   - terminationFlushTimeout: How long termination waits for the flush.
        public init(
            grantedConsent: Set<ConsentCategory> = [.necessary, .analytics],
            violationPolicy: ViolationPolicy = .standard,
            stages: [any AnalyticsStage] = [],
            context: AnalyticsContext = .current(),
            anonymousID: String? = nil,
            sessionTimeout: Duration = .seconds(30 * 60),
            errorHandler: (@Sendable (AnalyticsError) -> Void)? = nil,
            logger: Logger = Logger(label: "anna"),
            intakeLimit: MemoryLimit = MemoryLimit(events: 10_000, bytes: 8 << 20),
            providerLimit: MemoryLimit = MemoryLimit(events: 10_000, bytes: 8 << 20),
            storageDirectory: URL? = Configuration.defaultStorageDirectory,
            identityStore: (any IdentityStore)? = nil,
            lifecycle: AppLifecycle? = nil,
            tracksLifecycleEvents: Bool = false,
            terminationFlushTimeout: Duration = .seconds(2)
        ) {
            self.terminationFlushTimeout = terminationFlushTimeout
            self.storageDirectory = storageDirectory
            self.identityStore = identityStore
            self.lifecycle = lifecycle
            self.tracksLifecycleEvents = tracksLifecycleEvents
            self.grantedConsent = grantedConsent
            self.violationPolicy = violationPolicy
            self.stages = stages
            self.context = context
            self.anonymousID = anonymousID
            self.sessionTimeout = sessionTimeout
            self.errorHandler = errorHandler
            self.logger = logger
            self.intakeLimit = intakeLimit
            self.providerLimit = providerLimit
        }

        /// `Application Support/Anna` on Apple platforms (under the bundle identifier on
        /// macOS); `nil` elsewhere.
        public static var defaultStorageDirectory: URL? {
            #if canImport(Darwin)
            guard let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            else { return nil }
            #if os(macOS)
            let bundle = Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
            return support.appendingPathComponent(bundle).appendingPathComponent("Anna")
            #else
            return support.appendingPathComponent("Anna")
            #endif
            #else
            return nil
            #endif
        }

        /// The store the service uses: ``identityStore``, else `identity.json` in
        /// ``storageDirectory``, else memory.
        var resolvedIdentityStore: any IdentityStore {
            if let identityStore { return identityStore }
            if let storageDirectory { return FileIdentityStore(directory: storageDirectory) }
            return MemoryIdentityStore()
        }
    }
}
