import Foundation

/// The identity as the service holds it now: ``AnalyticsService/identity``.
public struct AnalyticsIdentity: Sendable, Hashable {
    /// The installation's anonymous identifier.
    public var anonymousID: String
    /// The user's identifier, if identified.
    public var userID: String?
    /// The user's traits, merged over the `identify` calls since the user id was set.
    public var traits: [String: AnalyticsValue]
    /// The current session (its start in milliseconds since 1970), 0 before the first event.
    public var sessionID: Int64
    /// The global properties set now.
    public var globals: [String: AnalyticsValue]
    /// The consent categories granted.
    public var grantedConsent: Set<ConsentCategory>
}
