import Foundation

/// Every decision of a launch, as a value: from the identity the store held (or the
/// new one written for a missing or unreadable store) and the configuration, which
/// anonymous id, consent and session the pipeline starts with, which lifecycle events
/// the launch reports, and whether the app's version must be written. No I/O: the
/// pipeline reads and writes the store and applies this.
struct IdentityLaunch {
    /// What the launch needs of the service's configuration.
    struct Settings {
        /// `Configuration.anonymousID`: a fixed id replaces the stored one.
        var fixedAnonymousID: String?
        /// `Configuration.grantedConsent`: used only while no choice is stored.
        var defaultConsent: Set<ConsentCategory>
        var app: AnalyticsContext.App
        var tracksLifecycleEvents: Bool
        var sessionTimeout: TimeInterval
    }

    /// The stored identity, with a fixed anonymous id applied.
    let identity: StoredIdentity
    /// A first launch: the store held no app version.
    let isNew: Bool
    /// The consent in force: a stored choice wins over the configuration's default.
    let grantedConsent: Set<ConsentCategory>
    /// The stored session, when its last activity is within the timeout.
    let continuedSession: (id: Int64, lastActivity: Date)?
    /// Application Installed or Updated (against the version stored), then Opened.
    let events: [AnalyticsEvent]
    /// The app's version and build, when they differ from the stored ones.
    let appPatch: IdentityPatch?

    init(stored: StoredIdentity, settings: Settings, now: Date) {
        var identity = stored
        if let fixed = settings.fixedAnonymousID { identity.anonymousID = fixed }
        self.identity = identity
        let app = settings.app
        isNew = stored.appVersion == nil && stored.appBuild == nil
        let updated = !isNew && (stored.appVersion != app.version || stored.appBuild != app.build)
        grantedConsent = stored.grantedConsent ?? settings.defaultConsent
        if stored.sessionID != 0, let last = stored.lastActivity, now.timeIntervalSince(last) <= settings.sessionTimeout {
            continuedSession = (stored.sessionID, last)
        } else {
            continuedSession = nil
        }
        appPatch = isNew || updated ? IdentityPatch(app: (app.version, app.build)) : nil

        var events: [AnalyticsEvent] = []
        if settings.tracksLifecycleEvents {
            if isNew {
                events.append(.lifecycle("Application Installed", app: app))
            } else if updated {
                var event = AnalyticsEvent.lifecycle("Application Updated", app: app)
                event.parameters["previous_version"] = stored.appVersion.map(AnalyticsValue.string)
                event.parameters["previous_build"] = stored.appBuild.map(AnalyticsValue.string)
                events.append(event)
            }
            events.append(.lifecycle("Application Opened", app: app, fromBackground: false))
        }
        self.events = events
    }
}
