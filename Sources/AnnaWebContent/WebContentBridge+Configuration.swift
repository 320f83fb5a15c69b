extension WebContentBridge {
    /// What pages may do through a bridge. The defaults allow no origin and no command:
    /// an app names the origins whose pages may report events, and the commands they
    /// may make.
    ///
    /// ```swift
    /// var configuration = WebContentBridge.Configuration()
    /// configuration.allowedOrigins = [WebContentOrigin(scheme: "https", host: "checkout.example.com")]
    /// ```
    public struct Configuration: Sendable {
        /// The origins whose frames may post (scheme, host and port, compared exactly).
        /// Empty by default: nothing is allowed.
        public var allowedOrigins: Set<WebContentOrigin>
        /// The largest message taken, in UTF-8 bytes, measured before it is parsed.
        /// 64 KiB by default.
        public var maxMessageBytes: Int
        /// How many messages each web view (each ``WebContentChannel``) may post.
        /// 20 a second with bursts of 50 by default.
        public var rate: WebContentRate
        /// The commands pages may make; none by default.
        public var allowedCommands: Set<WebContentCommand>
        /// The name of the script message handler: pages post with
        /// `window.webkit.messageHandlers.<handlerName>.postMessage(text)`. `anna` by default.
        public var handlerName: String

        /// Creates a configuration.
        /// - Parameters:
        ///   - allowedOrigins: The origins whose frames may post; none by default.
        ///   - maxMessageBytes: The largest message taken, in UTF-8 bytes; 64 KiB by default.
        ///   - rate: How many messages each web view may post; 20 a second, bursts of 50, by default.
        ///   - allowedCommands: The commands pages may make; none by default.
        ///   - handlerName: The script message handler's name; `anna` by default.
        public init(
            allowedOrigins: Set<WebContentOrigin> = [],
            maxMessageBytes: Int = 64 << 10,
            rate: WebContentRate = WebContentRate(messagesPerSecond: 20, burst: 50),
            allowedCommands: Set<WebContentCommand> = [],
            handlerName: String = "anna"
        ) {
            self.allowedOrigins = allowedOrigins
            self.maxMessageBytes = maxMessageBytes
            self.rate = rate
            self.allowedCommands = allowedCommands
            self.handlerName = handlerName
        }
    }
}

/// A token bucket: a web view may post `burst` messages at once, then
/// `messagesPerSecond` on average. What goes beyond is refused
/// (``WebContentRefusal/Kind/rateExceeded``) before it is parsed.
public struct WebContentRate: Sendable, Hashable {
    /// The rate the bucket refills at.
    public var messagesPerSecond: Double
    /// The bucket's size: how many messages may come at once.
    public var burst: Int

    /// Creates a rate.
    /// - Parameters:
    ///   - messagesPerSecond: The average rate allowed.
    ///   - burst: How many messages may come at once.
    public init(messagesPerSecond: Double, burst: Int) {
        self.messagesPerSecond = messagesPerSecond
        self.burst = burst
    }
}
