import Foundation

/// Who may ask the inspector what. Loopback is not a boundary: a page on any site,
/// open in the same browser, can send requests to `127.0.0.1`, and a DNS-rebinding
/// page can do it under its own name. So:
///
/// - every request must name the inspector's own address in `Host` (a rebinding page
///   sends its own name there);
/// - the page, its event stream and the read API answer same-origin requests only: no
///   CORS header, a foreign `Origin` refused, and a browser's cross-site fetch
///   (`Sec-Fetch-Site`) refused unless it is a navigation;
/// - beyond loopback, the page and the read API need the access token printed at start
///   (in a cookie that `/?token=…` sets, or `Authorization: Bearer …`);
/// - the collector endpoints take calls from anyone who can reach them, cross-origin
///   included (analytics.js), and answer only `{"success":…}`: nothing collected.
package struct AccessPolicy: Sendable {
    /// `host:port` values `Host` may have, lowercased.
    package let allowedHosts: Set<String>
    /// The token the page and the API need, or `nil` on loopback.
    package let token: String?
    /// The cookie that carries the token: `anna-inspect-PORT`, one per inspector.
    package let cookieName: String

    /// - Parameters:
    ///   - host: The address given with `--host`.
    ///   - port: The port actually bound.
    ///   - localNames: For a wildcard `host` (`0.0.0.0`, `::`), the machine's own
    ///     addresses and names, which devices on the network use.
    ///   - extraHosts: More names `Host` may have (`--allow-host`), such as a tunnel's.
    ///   - token: The access token, required beyond loopback.
    package init(host: String, port: Int, localNames: [String] = [], extraHosts: [String] = [], token: String?) {
        var names = ["127.0.0.1", "localhost", "::1", host] + extraHosts
        if Self.isWildcard(host) { names += localNames }
        var allowed: Set<String> = []
        for name in names where !Self.isWildcard(name) {
            let lowered = name.lowercased()
            let shown = lowered.contains(":") && !lowered.hasPrefix("[") ? "[\(lowered)]" : lowered
            allowed.insert("\(shown):\(port)")
            // A client leaves out the default port.
            if port == 80 { allowed.insert(shown) }
        }
        allowedHosts = allowed
        self.token = token
        cookieName = "anna-inspect-\(port)"
    }

    /// Whether an address is loopback, where no token is needed.
    package static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }

    /// `0.0.0.0` or `::`: every address of the machine.
    package static func isWildcard(_ host: String) -> Bool {
        host == "0.0.0.0" || host == "::" || host == "[::]" || host.isEmpty
    }

    /// The paths of the page, its event stream and the read API; everything else is
    /// the collector's (and answered 404 there when it is not an endpoint).
    package static func isPagePath(_ path: String) -> Bool {
        switch path {
        case "/", "/index.html", "/favicon.ico", "/events", "/api/state", "/api/wait": true
        default: path.hasPrefix("/api/calls/") && Int(path.dropFirst("/api/calls/".count)) != nil
        }
    }

    /// The headers of a request that the policy reads.
    package struct Request: Sendable {
        package var path: String
        package var query: String
        package var host: String?
        package var origin: String?
        /// `Sec-Fetch-Site` and `Sec-Fetch-Mode`, which browsers send.
        package var fetchSite: String?
        package var fetchMode: String?
        package var cookie: String?
        package var authorization: String?

        package init(
            path: String, query: String = "", host: String?, origin: String? = nil, fetchSite: String? = nil, fetchMode: String? = nil,
            cookie: String? = nil, authorization: String? = nil
        ) {
            self.path = path
            self.query = query
            self.host = host
            self.origin = origin
            self.fetchSite = fetchSite
            self.fetchMode = fetchMode
            self.cookie = cookie
            self.authorization = authorization
        }
    }

    /// What to do with a request.
    package enum Decision: Sendable, Equatable {
        /// Serve it.
        case allow
        /// `/?token=…` with the right token: set the cookie and send the browser to `/`.
        case setCookie(String)
        /// Refuse with this status and message; `counted` ones are recorded as refused
        /// requests (an attempt to reach the inspector under another name or origin).
        case refuse(status: Int, message: String, counted: Bool)
    }

    /// Decides on one request.
    package func decide(_ request: Request) -> Decision {
        let host = request.host?.lowercased() ?? ""
        guard allowedHosts.contains(host) else {
            let got = request.host.map { "'\($0)'" } ?? "none"
            return .refuse(
                status: 403, message: "the Host header (\(got)) is not an address this inspector listens on (\(allowedHosts.sorted().joined(separator: ", "))); "
                    + "a page under another name may not reach it (DNS rebinding); add a name with --allow-host",
                counted: true)
        }
        guard Self.isPagePath(request.path) else { return .allow }
        if let origin = request.origin, origin.lowercased() != "http://" + host {
            return .refuse(status: 403, message: "the page and /api answer their own origin only, not \(origin)", counted: true)
        }
        if let site = request.fetchSite?.lowercased(), site != "same-origin", site != "none", request.fetchMode?.lowercased() != "navigate" {
            return .refuse(status: 403, message: "the page and /api answer their own origin only, not a \(site) request", counted: true)
        }
        guard let token else { return .allow }
        if request.path == "/", let given = Self.queryValue("token", in: request.query) {
            guard Self.same(given, token) else { return .refuse(status: 401, message: "this is not the token anna-inspect printed when it started", counted: false) }
            return .setCookie("\(cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict")
        }
        if let authorization = request.authorization, authorization.hasPrefix("Bearer "), Self.same(String(authorization.dropFirst(7)), token) {
            return .allow
        }
        if let cookie = request.cookie, Self.cookieValue(cookieName, in: cookie).map({ Self.same($0, token) }) == true {
            return .allow
        }
        return .refuse(
            status: 401, message: "listening beyond loopback, the page and /api need the access token: open the address with ?token= that anna-inspect printed when it started, "
                + "or send Authorization: Bearer TOKEN", counted: false)
    }

    /// The value of `name` in a query string (`a=1&b=2`), as written.
    package static func queryValue(_ name: String, in query: String) -> String? {
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0] == name { return String(parts[1]) }
        }
        return nil
    }

    static func cookieValue(_ name: String, in header: String) -> String? {
        for pair in header.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name { return parts[1].trimmingCharacters(in: .whitespaces) }
        }
        return nil
    }

    /// Compares in time that does not depend on where the strings differ.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }

    /// A new access token: 128 random bits in hex.
    package static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let word = String(generator.next() as UInt32, radix: 16)
            return String(repeating: "0", count: 8 - word.count) + word
        }.joined()
    }
}
