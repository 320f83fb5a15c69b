@_spi(Generated) import Anna
import Foundation

/// Lets the web content an app shows (a checkout, a help centre, an account page in a
/// web view) report through the app's own ``AnalyticsService``, checked against the
/// app's compiled plan.
///
/// ```swift
/// let bridge = WebContentBridge(
///     service: analytics, catalog: .shop,
///     configuration: .init(allowedOrigins: [WebContentOrigin(scheme: "https", host: "checkout.example.com")]))
/// let channel = bridge.makeChannel()           // one per web view
/// channel.receive(message.body, from: origin)  // AnnaWebKit's handler does this
/// ```
///
/// The page is not trusted. A message is refused unless its frame's origin is allowed,
/// it is a string of at most ``Configuration/maxMessageBytes``, its web view is within
/// ``Configuration/rate``, and it is a message of format 1 whose event or screen the
/// plan declares, with declared properties (or the plan's global properties) of the
/// declared types, enum values and constraints: the checks of the typed factories,
/// through ``EventCatalog``; `identify` and `group` take the plan's traits. Commands
/// (`identify`, `reset`, opt-out, consent) are refused unless allowed by name. What passes
/// is reported through the service, so the app's identity, session, consent, opt-out,
/// global properties, PII rules and providers apply to it as to the app's own events.
///
/// Every refusal is counted (``refusals``, and ``AnalyticsMetrics/lost`` under
/// ``DropReason/refusedByBridge``); the first of each kind reaches the service's error
/// handler (``AnalyticsError/Code/refusedByBridge``) on the thread that handed the
/// message over, naming the event, never a value.
public final class WebContentBridge: Sendable {
    /// What pages may do.
    public let configuration: Configuration
    /// The service events are reported through.
    let service: AnalyticsService
    /// The plan that decides what is valid.
    let catalog: EventCatalog
    /// Time for the rate buckets, since any fixed origin; injected by tests.
    let uptime: @Sendable () -> Duration
    let names: CatalogNames
    /// Compiled patterns, shared by the channels.
    let checker = LockedState(ConstraintChecker())
    private let counts = LockedState(Counts())

    private struct Counts {
        var refusals: [WebContentRefusal.Kind: Int] = [:]
    }

    /// Creates a bridge.
    /// - Parameters:
    ///   - service: The app's service: events are reported through it.
    ///   - catalog: The app's compiled plan, generated from its spec (`EventCatalog.<name>`).
    ///   - configuration: The allowed origins and commands, and the bounds.
    public convenience init(service: AnalyticsService, catalog: EventCatalog, configuration: Configuration = Configuration()) {
        let origin = ContinuousClock.now
        self.init(service: service, catalog: catalog, configuration: configuration, uptime: { origin.duration(to: .now) })
    }

    /// Creates a bridge whose rate buckets read `uptime`: tests move it by hand.
    package init(
        service: AnalyticsService, catalog: EventCatalog, configuration: Configuration, uptime: @escaping @Sendable () -> Duration
    ) {
        self.service = service
        self.catalog = catalog
        self.configuration = configuration
        self.uptime = uptime
        self.names = CatalogNames(catalog)
    }

    /// A channel for one web view, with its own rate bucket.
    public func makeChannel() -> WebContentChannel {
        WebContentChannel(bridge: self)
    }

    /// The messages refused so far, by kind.
    public var refusals: [WebContentRefusal.Kind: Int] {
        counts.withLock { $0.refusals }
    }

    /// Counts a refusal and tells the error handler when it is the first of its kind.
    func refuse(_ refusal: WebContentRefusal) -> WebContentOutcome {
        let first = counts.withLock { counts in
            counts.refusals[refusal.kind, default: 0] += 1
            return counts.refusals[refusal.kind] == 1
        }
        service.countRefused(.refusedByBridge)
        if first { service.reportError(.refusedByBridge(refusal)) }
        return .refused(refusal)
    }

    /// Carries out a message that passed the channel's checks.
    func handle(_ message: WebContentMessage) -> WebContentOutcome {
        if let command = message.call.command, !configuration.allowedCommands.contains(command) {
            return refuse(WebContentRefusal(
                .commandNotAllowed, name: message.call.name,
                message: "the app does not allow pages to call \(command.rawValue) (WebContentBridge.Configuration.allowedCommands)"))
        }
        do throws(WebContentRefusal) {
            switch message.call {
            case .track(let event, let properties, let plan):
                service.report(try self.event(event, properties: properties, plan: plan, naming: message.naming))
            case .screen(let name, let properties, let plan):
                service.screen(try screen(name, properties: properties, plan: plan, naming: message.naming))
            case .identify(let userID, let traits):
                let traits = try self.traits(traits, set: .traits, naming: message.naming).map {
                    UserTrait(name: $0.name, value: $0.value, metadata: $0.metadata)
                }
                if let userID { service.identify(userID: userID, traits: traits) } else { service.identify(traits: traits) }
            case .group(let groupID, let traits):
                let traits = try self.traits(traits, set: .groupTraits, naming: message.naming).map {
                    GroupTrait(name: $0.name, value: $0.value, metadata: $0.metadata)
                }
                service.group(groupID: groupID, traits: traits)
            case .reset:
                service.reset()
            case .optOut(let optedOut):
                if optedOut {
                    // Collection stops when the opt-out starts on the service's side, as from the app.
                    Task { [service] in await service.optOut() }
                } else {
                    service.optIn()
                }
            case .consent(let categories):
                service.setConsent(Set(categories.map(ConsentCategory.init(rawValue:))))
            }
        } catch {
            return refuse(error)
        }
        return .accepted
    }
}
