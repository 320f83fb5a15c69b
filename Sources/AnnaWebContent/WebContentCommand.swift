/// A call that changes the app's state rather than reporting what happened. A page
/// may make one only when the app allows it by name in
/// ``WebContentBridge/Configuration/allowedCommands``; by default it may make none.
public enum WebContentCommand: String, Sendable, Hashable, CaseIterable {
    /// `identify`: sets the user id and merges the user's traits.
    case identify
    /// `group`: associates the user with a group.
    case group
    /// `reset`: forgets the user, as at sign-out.
    case reset
    /// `optOut`: opts the user out of collection, or back in.
    case optOut
    /// `consent`: replaces the granted consent categories.
    case consent
}
