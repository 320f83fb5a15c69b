/// Something that went wrong on the way to a provider. Delivered to
/// ``AnalyticsService/Configuration/errorHandler``.
///
/// A struct over a private code, so that later versions can add kinds of error
/// without breaking a `switch` in app code: switch over ``code`` with a `default`,
/// or compare it (`error.code == .intakeOverflow`), and read the details the kind
/// carries from the optional properties.
public struct AnalyticsError: Error, Sendable, CustomStringConvertible {
    /// The kind of an ``AnalyticsError``.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case providerFailed, constraintViolated, providerLimit, intakeOverflow, providerOverflow, identityStore, refusedByBridge
        }

        private let base: Base

        /// A provider threw while receiving a batch: ``provider``, ``batch``, ``underlyingError``.
        public static let providerFailed = Code(base: .providerFailed)
        /// An event's values broke its spec's constraints: ``constraintViolation``, ``policy``.
        public static let constraintViolated = Code(base: .constraintViolated)
        /// An event broke a provider's profile and was changed or not sent:
        /// ``provider``, ``profileViolation``.
        public static let providerLimit = Code(base: .providerLimit)
        /// Events were reported while the intake was full
        /// (``AnalyticsService/Configuration/intakeLimit``) and dropped; reported once per
        /// pipeline pass with their number: ``events``.
        public static let intakeOverflow = Code(base: .intakeOverflow)
        /// A provider's lane was full (``AnalyticsService/Configuration/providerLimit``):
        /// ``events`` were dropped for ``provider`` only.
        public static let providerOverflow = Code(base: .providerOverflow)
        /// The identity store could not read or write the service's state
        /// (``AnalyticsService/Configuration/storageDirectory``): ``underlyingError``.
        /// A state that could not be read was replaced by a new one.
        public static let identityStore = Code(base: .identityStore)
        /// The web-content bridge (`AnnaWebContent`) refused a web page's message, the
        /// first of its kind: ``underlyingError`` says which kind and names the event,
        /// never a value. Every refusal is counted under ``DropReason/refusedByBridge``.
        public static let refusedByBridge = Code(base: .refusedByBridge)

        /// The kind's name, e.g. `intakeOverflow`.
        public var description: String { base.rawValue }
    }

    /// The kind of error.
    public let code: Code
    /// The provider concerned, for ``Code/providerFailed``, ``Code/providerLimit`` and
    /// ``Code/providerOverflow``.
    public private(set) var provider: String?
    /// The batch the provider failed on, for ``Code/providerFailed``; empty otherwise.
    public private(set) var batch: [AnalyticsEnvelope] = []
    /// What the provider threw, for ``Code/providerFailed``; what the store threw, for
    /// ``Code/identityStore``; the refusal, for ``Code/refusedByBridge``.
    public private(set) var underlyingError: (any Error)?
    /// The broken constraint, for ``Code/constraintViolated``.
    public private(set) var constraintViolation: ConstraintViolation?
    /// What the service did about it, for ``Code/constraintViolated``.
    public private(set) var policy: ViolationPolicy?
    /// The broken provider limit, for ``Code/providerLimit``.
    public private(set) var profileViolation: ProfileViolation?
    /// How many events were dropped, for ``Code/intakeOverflow`` and ``Code/providerOverflow``.
    public private(set) var events: Int?

    private init(code: Code) {
        self.code = code
    }

    /// A provider threw while receiving a batch.
    package static func providerFailed(provider: String, batch: [AnalyticsEnvelope], error: any Error) -> AnalyticsError {
        var result = AnalyticsError(code: .providerFailed)
        result.provider = provider
        result.batch = batch
        result.underlyingError = error
        return result
    }

    /// An event's values broke its spec's constraints.
    package static func constraintViolated(_ violation: ConstraintViolation, policy: ViolationPolicy) -> AnalyticsError {
        var result = AnalyticsError(code: .constraintViolated)
        result.constraintViolation = violation
        result.policy = policy
        return result
    }

    /// An event broke a provider's profile and was changed or not sent.
    package static func providerLimit(provider: String, _ violation: ProfileViolation) -> AnalyticsError {
        var result = AnalyticsError(code: .providerLimit)
        result.provider = provider
        result.profileViolation = violation
        return result
    }

    /// Events were dropped because the intake was full.
    package static func intakeOverflow(events: Int) -> AnalyticsError {
        var result = AnalyticsError(code: .intakeOverflow)
        result.events = events
        return result
    }

    /// Events were dropped for one provider because its lane was full.
    package static func providerOverflow(provider: String, events: Int) -> AnalyticsError {
        var result = AnalyticsError(code: .providerOverflow)
        result.provider = provider
        result.events = events
        return result
    }

    /// The identity store failed.
    package static func identityStore(_ error: any Error) -> AnalyticsError {
        var result = AnalyticsError(code: .identityStore)
        result.underlyingError = error
        return result
    }

    /// A web page's message was refused by the web-content bridge.
    package static func refusedByBridge(_ refusal: any Error) -> AnalyticsError {
        var result = AnalyticsError(code: .refusedByBridge)
        result.underlyingError = refusal
        return result
    }

    /// One line without parameter values.
    public var description: String {
        let provider = self.provider ?? "?"
        let events = self.events ?? 0
        switch code {
        case .providerFailed:
            return "provider '\(provider)' failed on a batch of \(batch.count) event(s): \(underlyingError.map { "\($0)" } ?? "?")"
        case .constraintViolated:
            return "\(constraintViolation.map(\.description) ?? "?") (policy: \(policy.map { "\($0)" } ?? "?"))"
        case .providerLimit:
            return "provider '\(provider)': \(profileViolation.map(\.description) ?? "?")"
        case .identityStore:
            return "the identity store failed: \(underlyingError.map { "\($0)" } ?? "?")"
        case .refusedByBridge:
            return "web content: \(underlyingError.map { "\($0)" } ?? "?")"
        case .intakeOverflow:
            return "\(events) event(s) dropped: the service's intake was full (intakeLimit); "
                + "the pipeline is behind, or use reportWaitingForRoom for bulk reporting"
        default:
            return "\(events) event(s) dropped for provider '\(provider)': its lane was full (providerLimit); "
                + "the provider is slow or blocked"
        }
    }
}
