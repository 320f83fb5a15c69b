import Foundation

/// Where a web page's message comes from: the scheme, host and port of the frame that
/// posted it, as WebKit gives them (`WKSecurityOrigin`'s `protocol`, `host` and `port`).
///
/// Two origins are the same when all three are: `https://shop.example.com` is not
/// `https://example.com`, nor `http://shop.example.com`, nor `https://shop.example.com:8443`.
/// The scheme and host are compared without case; a port of 0 (WebKit's "the scheme's
/// default") is the scheme's default port.
///
/// ```swift
/// let checkout = WebContentOrigin(scheme: "https", host: "checkout.example.com")
/// let local = WebContentOrigin("http://localhost:8080")   // from a URL string
/// ```
public struct WebContentOrigin: Sendable, Hashable, CustomStringConvertible {
    /// The scheme, lowercased: `https`.
    public let scheme: String
    /// The host, lowercased: `checkout.example.com`.
    public let host: String
    /// The port; the scheme's default port when it was given as 0 or left out, `nil`
    /// for a scheme without a known default.
    public let port: Int?

    /// Creates an origin.
    /// - Parameters:
    ///   - scheme: The scheme (`WKSecurityOrigin.protocol`).
    ///   - host: The host (`WKSecurityOrigin.host`).
    ///   - port: The port (`WKSecurityOrigin.port`); 0, the default, means the scheme's default port.
    public init(scheme: String, host: String, port: Int = 0) {
        self.scheme = scheme.lowercased()
        self.host = host.lowercased()
        self.port = port > 0 ? port : Self.defaultPort(of: self.scheme)
    }

    /// Creates an origin from a URL's scheme, host and port: `"https://example.com"`;
    /// `nil` when the string has no scheme or no host. A path, query or fragment is ignored.
    /// - Parameter url: An absolute URL.
    public init?(_ url: String) {
        guard let components = URLComponents(string: url), let scheme = components.scheme,
            let host = components.host, !host.isEmpty
        else { return nil }
        self.init(scheme: scheme, host: host, port: components.port ?? 0)
    }

    /// `https://checkout.example.com`, with the port when it is not the scheme's default.
    public var description: String {
        guard let port, port != Self.defaultPort(of: scheme) else { return "\(scheme)://\(host)" }
        return "\(scheme)://\(host):\(port)"
    }

    private static func defaultPort(of scheme: String) -> Int? {
        switch scheme {
        case "https", "wss": 443
        case "http", "ws": 80
        default: nil
        }
    }
}
