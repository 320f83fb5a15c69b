/// Why the bridge refused a web page's message. Names the kind, the event or command
/// and the key concerned, never a value: values may be personal data.
///
/// Every refusal is counted in the service's ``AnalyticsMetrics/lost`` under
/// ``DropReason/refusedByBridge`` and in ``WebContentBridge/refusals`` by kind; the
/// first of each kind reaches the app's error handler as an ``AnalyticsError`` with the
/// code ``AnalyticsError/Code/refusedByBridge`` and this as its
/// ``AnalyticsError/underlyingError``.
public struct WebContentRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// A kind of refusal.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The frame's origin is not in ``WebContentBridge/Configuration/allowedOrigins``.
        case originNotAllowed
        /// The message is larger than ``WebContentBridge/Configuration/maxMessageBytes``.
        case tooLarge
        /// The web view posted faster than ``WebContentBridge/Configuration/rate`` allows.
        case rateExceeded
        /// Not a JSON string of message format 1: not a string, not JSON, another
        /// `anna` version, an unknown `type`, an unknown or missing key, a key of the
        /// wrong type.
        case malformed
        /// The message names another plan in `context.plan.name` than the app's.
        case otherPlan
        /// The event or screen is not in the app's plan (deprecated ones are not either).
        case undeclaredEvent
        /// A property the event, screen or trait set does not declare, nor the plan's
        /// global properties.
        case undeclaredProperty
        /// A value of another type than declared, outside an enum, a required one
        /// missing, or an object with a property its type does not declare.
        case invalidValue
        /// A value outside its declared `min`, `max`, length or `pattern`.
        case constraintViolated
        /// `identify`, `group`, `reset`, `optOut` or `consent`, which the app did not allow
        /// (``WebContentBridge/Configuration/allowedCommands``).
        case commandNotAllowed
    }

    /// The kind.
    public var kind: Kind
    /// The event, screen or command the message named, when it could be read: a page
    /// may put anything there, so it is shown cut to 100 characters.
    public var name: String?
    /// What was wrong, without values.
    public var message: String

    /// Creates a refusal.
    /// - Parameters:
    ///   - kind: The kind.
    ///   - name: The event, screen or command named.
    ///   - message: What was wrong, without values.
    public init(_ kind: Kind, name: String? = nil, message: String) {
        self.kind = kind
        self.name = name.map { Self.cut($0, to: 100) }
        self.message = Self.cut(message, to: 400)
    }

    /// A page chooses the names a message holds: keep what reaches the error handler short.
    private static func cut(_ text: String, to length: Int) -> String {
        text.count > length ? String(text.prefix(length)) + "…" : text
    }

    /// `refused (undeclaredProperty) 'orderPlaced': …`.
    public var description: String {
        "refused (\(kind.rawValue))\(name.map { " '\($0)'" } ?? ""): \(message)"
    }
}

/// What the bridge did with a message.
public enum WebContentOutcome: Sendable, Hashable {
    /// Handed to the service: an event or screen reported, a command carried out.
    /// Consent, opt-out, the providers' PII rules and everything else the service
    /// applies still apply.
    case accepted
    /// Refused and counted.
    case refused(WebContentRefusal)

    /// The refusal's kind, or `nil` when accepted.
    public var refusalKind: WebContentRefusal.Kind? {
        if case .refused(let refusal) = self { return refusal.kind }
        return nil
    }
}
