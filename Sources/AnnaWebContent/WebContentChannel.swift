@_spi(Generated) import Anna

/// One web view's way into a ``WebContentBridge``: it checks where each message comes
/// from, its size and the web view's rate, then hands it to the bridge. Make one per
/// web view with ``WebContentBridge/makeChannel()``, so a page that floods its own
/// channel leaves the others' rate alone.
public final class WebContentChannel: Sendable {
    private let bridge: WebContentBridge
    private let bucket: LockedState<TokenBucket>

    init(bridge: WebContentBridge) {
        self.bridge = bridge
        bucket = LockedState(TokenBucket(rate: bridge.configuration.rate, now: bridge.uptime()))
    }

    /// Checks a message a page posted and reports it through the app's service, or
    /// refuses and counts it. In order: the origin, that the body is a string, its
    /// UTF-8 size (before it is parsed), the web view's rate, then the message against
    /// the format and the app's plan. Never throws, never blocks on the service.
    /// - Parameters:
    ///   - body: What the page posted (`WKScriptMessage.body`): a JSON string.
    ///   - origin: The posting frame's security origin (`message.frameInfo.securityOrigin`).
    /// - Returns: Whether the message was accepted, or why it was refused.
    @discardableResult
    public func receive(_ body: Any, from origin: WebContentOrigin) -> WebContentOutcome {
        let configuration = bridge.configuration
        guard configuration.allowedOrigins.contains(origin) else {
            return bridge.refuse(WebContentRefusal(
                .originNotAllowed, message: "\(origin) is not among the allowed origins (WebContentBridge.Configuration.allowedOrigins)"))
        }
        guard let text = body as? String else {
            return bridge.refuse(WebContentRefusal(.malformed, message: "the message is not a string; post JSON.stringify(message)"))
        }
        let size = text.utf8.count
        guard size <= configuration.maxMessageBytes else {
            return bridge.refuse(WebContentRefusal(
                .tooLarge, message: "\(size) bytes, more than maxMessageBytes (\(configuration.maxMessageBytes))"))
        }
        let now = bridge.uptime()
        guard bucket.withLock({ $0.take(at: now) }) else {
            return bridge.refuse(WebContentRefusal(
                .rateExceeded,
                message: "more than \(configuration.rate.burst) messages at once or \(configuration.rate.messagesPerSecond) a second from one web view"))
        }
        let message: WebContentMessage
        do throws(WebContentRefusal) {
            message = try WebContentMessage(json: text)
        } catch {
            return bridge.refuse(error)
        }
        return bridge.handle(message)
    }
}

/// `burst` tokens at most, refilled at `messagesPerSecond`; a message takes one.
struct TokenBucket: Sendable {
    private let perSecond: Double
    private let capacity: Double
    private var tokens: Double
    private var last: Duration

    init(rate: WebContentRate, now: Duration) {
        perSecond = max(0, rate.messagesPerSecond)
        capacity = Double(max(0, rate.burst))
        tokens = capacity
        last = now
    }

    /// Takes a token if there is one.
    mutating func take(at now: Duration) -> Bool {
        if now > last {
            let elapsed = now - last
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            tokens = min(capacity, tokens + seconds * perSecond)
            last = now
        }
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
