import Foundation

/// A change to some fields of a ``StoredIdentity``; fields left `nil` keep what the
/// store holds, which another process sharing the store may have changed.
struct IdentityPatch: Sendable {
    var anonymousID: String?
    var userID: String??
    var traits: (values: [String: AnalyticsValue], pii: Set<String>)?
    var grantedConsent: Set<ConsentCategory>?
    var isOptedOut: Bool?
    var session: (id: Int64, lastActivity: Date?)?
    var app: (version: String?, build: String?)?
    var globals: (values: [String: AnalyticsValue], pii: Set<String>)?

    /// Whether the patch records a choice of the app (consent, an opt-out or opt-in, a
    /// reset): after a state that could not be read, the first one is written.
    var isAppChoice: Bool { grantedConsent != nil || isOptedOut != nil || anonymousID != nil }

    func apply(to identity: inout StoredIdentity) {
        if let anonymousID { identity.anonymousID = anonymousID }
        if let userID { identity.userID = userID }
        if let traits {
            identity.traits = traits.values
            identity.piiTraits = traits.pii
        }
        if let grantedConsent { identity.grantedConsent = grantedConsent }
        if let isOptedOut { identity.isOptedOut = isOptedOut }
        if let session {
            identity.sessionID = session.id
            identity.lastActivity = session.lastActivity
        }
        if let app {
            identity.appVersion = app.version
            identity.appBuild = app.build
        }
        if let globals {
            identity.globals = globals.values
            identity.piiGlobals = globals.pii
        }
    }
}
