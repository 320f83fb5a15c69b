import Foundation

extension AnalyticsService {
    /// Identifies the user: sets the user id for everything reported from now on, merges
    /// `traits` into the user's traits, keeps both across launches, and sends Segment's
    /// `identify` call with the user's traits.
    ///
    /// ```swift
    /// analytics.identify(userID: account.id, traits: [.email(account.email), .plan(.pro)])
    /// ```
    ///
    /// Traits are declared in the spec's `traits:` section and are PII unless it says
    /// otherwise, so providers that may not receive PII get them removed or hashed. A
    /// new user id drops the former user's traits. `identify(userID: nil)` forgets the
    /// user id (sending nothing unless traits are given); at sign-out prefer
    /// ``reset()``, which also gives the installation a new anonymous id.
    ///
    /// Like events, the call needs the `analytics` consent category to reach providers;
    /// the user id and traits are kept either way.
    /// - Parameters:
    ///   - userID: The user's identifier, or `nil` to forget it.
    ///   - traits: Traits of the user, from the spec.
    public func identify(userID: String?, traits: [UserTrait] = []) {
        take(.identify(userID: .some(userID), traits: traits), at: Date())
    }

    /// Adds traits to the current user (identified or anonymous), keeps them across
    /// launches, and sends Segment's `identify` call.
    /// - Parameter traits: Traits of the user, from the spec.
    public func identify(traits: [UserTrait]) {
        take(.identify(userID: .none, traits: traits), at: Date())
    }

    /// Records that the user saw a screen: Segment's `screen` call.
    ///
    /// ```swift
    /// analytics.screen(.productDetail(productID: product.id))
    /// ```
    ///
    /// Screens are declared in the spec's `screens:` section and go through the same
    /// consent, constraints, stages and global properties as events. Providers that do
    /// not take screens (``ProviderOptions/receivedKinds``) receive a `Screen Viewed`
    /// event with the screen's name in `name`.
    /// - Parameter screen: The screen, from a generated factory.
    public func screen(_ screen: AnalyticsScreen) {
        take(.screen(screen), at: Date())
    }

    /// Associates the user with a group (an account, a company): Segment's `group` call.
    /// - Parameters:
    ///   - groupID: The group's identifier.
    ///   - traits: Traits of the group, from the spec's `groupTraits:` section.
    public func group(groupID: String, traits: [GroupTrait] = []) {
        take(.group(groupID: groupID, traits: traits), at: Date())
    }

    /// Gives the user a new identifier and tells the providers that it replaces the
    /// former one (the user id, or the anonymous id before identification): Segment's
    /// `alias` call. Events reported afterwards carry the new id.
    /// - Parameter newUserID: The user's new identifier.
    public func alias(newUserID: String) {
        take(.alias(newUserID: newUserID), at: Date())
    }

    /// Forgets the user, at sign-out: a new anonymous id, no user id, no traits, and a
    /// new session from the next event. Kept across launches. Global properties stay;
    /// remove those that describe the user with ``removeGlobal(_:)``. Consent and opt-out
    /// are the device's and stay too.
    public func reset() {
        take(.reset, at: Date())
    }

    /// Sets a global property that every event and screen reported from now on carries,
    /// unless the event sets a parameter of that name itself:
    /// `analytics.setGlobal(.theme(.dark))`.
    ///
    /// Global properties are declared in the spec's `globals:` section; those it marks
    /// `persisted: true` are kept across launches. A value that breaks the property's
    /// constraint is handled by ``Configuration/violationPolicy`` (not set with `.drop`).
    /// - Parameter global: The property and its value, from a generated factory.
    public func setGlobal(_ global: AnalyticsGlobal) {
        take(.setGlobal(global), at: Date())
    }

    /// Removes a global property from events reported from now on (and from the store,
    /// when it is persisted): `analytics.removeGlobal(.theme)`.
    /// - Parameter key: The property's key, generated from the spec.
    public func removeGlobal(_ key: AnalyticsGlobal.Key) {
        take(.removeGlobal(key.name), at: Date())
    }

    /// The identity as of every call made before this one: anonymous id, user id,
    /// traits, session, global properties and granted consent.
    public var identity: AnalyticsIdentity {
        get async {
            await withCheckedContinuation { (continuation: CheckedContinuation<AnalyticsIdentity, Never>) in
                enqueueControl(.read { continuation.resume(returning: $0) })
            }
        }
    }
}
