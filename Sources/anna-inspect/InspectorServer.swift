#if Inspector
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import _AnnaInspector

/// The inspector's HTTP server on SwiftNIO: collector endpoints, the live page, its
/// event stream and the JSON API. It moves bytes only; ``Inspector`` decides.
final class InspectorServer: Sendable {
    let inspector: Inspector
    let forwarder: Forwarder?
    let streams = LiveStreams()
    private let group = MultiThreadedEventLoopGroup(numberOfThreads: max(1, System.coreCount))
    private let channel = NIOLockedValueBox<(any Channel)?>(nil)
    private let activity = NIOLockedValueBox<Double>(Date().timeIntervalSince1970)
    private let access = NIOLockedValueBox<AccessPolicy?>(nil)

    init(inspector: Inspector, forwarder: Forwarder?) {
        self.inspector = inspector
        self.forwarder = forwarder
    }

    /// When a collector endpoint was last asked, in seconds since 1970.
    var lastActivity: Double { activity.withLockedValue { $0 } }

    func touch() { activity.withLockedValue { $0 = Date().timeIntervalSince1970 } }

    /// Who may ask what; `nil` until the port is bound.
    var policy: AccessPolicy? { access.withLockedValue { $0 } }

    /// Binds and starts serving.
    /// - Parameters:
    ///   - allowing: More names the `Host` header may have (`--allow-host`).
    ///   - token: The access token for the page and the API, beyond loopback.
    /// - Returns: The address, `http://127.0.0.1:8787`.
    func start(host: String, port: Int, allowing extraHosts: [String] = [], token: String?) throws -> String {
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(InspectorHTTPHandler(server: self))
                }
            }
            .childChannelOption(.socketOption(.so_reuseaddr), value: 1)
        let bound = try bootstrap.bind(host: host, port: port).wait()
        channel.withLockedValue { $0 = bound }
        let actualPort = bound.localAddress?.port ?? port
        access.withLockedValue {
            $0 = AccessPolicy(host: host, port: actualPort, localNames: AccessPolicy.isWildcard(host) ? Self.localNames() : [], extraHosts: extraHosts, token: token)
        }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        _ = inspector.addObserver { [streams] records in streams.send(records) }
        return "http://\(shownHost):\(actualPort)"
    }

    /// The machine's addresses and host names, which a device on the network puts in `Host`.
    static func localNames() -> [String] {
        var names = ((try? System.enumerateDevices()) ?? []).compactMap { $0.address?.ipAddress }
            .map { address in address.split(separator: "%").first.map(String.init) ?? address }
        var buffer = [CChar](repeating: 0, count: 256)
        if gethostname(&buffer, buffer.count) == 0 {
            let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if !name.isEmpty { names += [name, name.hasSuffix(".local") ? name : name + ".local"] }
        }
        return names
    }

    /// Closes the listening socket and the live streams, then the event loops.
    func stop() async {
        let bound = channel.withLockedValue { $0 }
        try? await bound?.close()
        streams.closeAll()
        try? await group.shutdownGracefully()
    }
}

/// The open `/events` streams of live pages.
final class LiveStreams: Sendable {
    private let channels = NIOLockedValueBox<[ObjectIdentifier: any Channel]>([:])

    var count: Int { channels.withLockedValue { $0.count } }

    func add(_ channel: any Channel) { channels.withLockedValue { $0[ObjectIdentifier(channel)] = channel } }

    func remove(_ channel: any Channel) { _ = channels.withLockedValue { $0.removeValue(forKey: ObjectIdentifier(channel)) } }

    /// Sends records to every page; a page that does not read (its socket full) is
    /// disconnected rather than buffered for without end, and reconnects.
    func send(_ records: [CallRecord]) {
        let targets = channels.withLockedValue { Array($0.values) }
        guard !targets.isEmpty else { return }
        let bytes = Inspector.serverSentEvent(records)
        for channel in targets {
            let buffer = channel.allocator.buffer(bytes: bytes)
            channel.eventLoop.execute {
                guard channel.isWritable else {
                    channel.close(promise: nil)
                    return
                }
                channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(buffer)), promise: nil)
            }
        }
    }

    func closeAll() {
        let targets = channels.withLockedValue { all in
            defer { all = [:] }
            return Array(all.values)
        }
        for channel in targets { channel.close(promise: nil) }
    }
}

/// One connection: reads a request with a bounded body, answers it.
final class InspectorHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let server: InspectorServer
    private var head: HTTPRequestHead?
    private var body: ByteBuffer?
    private var bodyTooLarge = false
    private var isStream = false

    init(server: InspectorServer) { self.server = server }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = context.channel.allocator.buffer(capacity: 0)
            bodyTooLarge = Int(head.headers.first(name: "content-length") ?? "0").map { $0 > server.inspector.limits.maximumBody } ?? false
            if bodyTooLarge { body = nil }
        case .body(var chunk):
            guard !bodyTooLarge, var buffer = body else { return }
            if buffer.readableBytes + chunk.readableBytes > server.inspector.limits.maximumBody {
                bodyTooLarge = true
                body = nil
                return
            }
            buffer.writeBuffer(&chunk)
            body = buffer
        case .end:
            guard let head else { return }
            self.head = nil
            handle(head, body: body.map { Array($0.readableBytesView) } ?? [], context: context)
            body = nil
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if isStream { server.streams.remove(context.channel) }
        context.fireChannelInactive()
    }

    private func handle(_ head: HTTPRequestHead, body: [UInt8], context: ChannelHandlerContext) {
        let target = head.uri.split(separator: "?", maxSplits: 1)
        let path = target.first.map(String.init) ?? "/"
        let query = target.count > 1 ? String(target[1]) : ""
        let keepAlive = head.isKeepAlive
        let headers = head.headers
        guard let policy = server.policy else {
            return respond(context, status: .serviceUnavailable, type: "application/json", body: Array(#"{"success":false,"error":"starting"}"#.utf8), keepAlive: false)
        }
        let access = AccessPolicy.Request(
            path: path, query: query, host: headers.first(name: "host"), origin: headers.first(name: "origin"), fetchSite: headers.first(name: "sec-fetch-site"),
            fetchMode: headers.first(name: "sec-fetch-mode"), cookie: headers[canonicalForm: "cookie"].joined(separator: "; "),
            authorization: headers.first(name: "authorization"))
        switch policy.decide(access) {
        case .allow:
            break
        case .setCookie(let cookie):
            bodyTooLarge = false
            return respond(context, status: .seeOther, type: nil, body: [], keepAlive: keepAlive, extra: [("set-cookie", cookie), ("location", "/")])
        case .refuse(let status, let message, let counted):
            bodyTooLarge = false
            let request = Inspector.Request(method: head.method.rawValue, path: path, contentType: headers.first(name: "content-type"), contentEncoding: nil, body: body)
            let response = counted ? server.inspector.refuse(request, status: status, message) : Inspector.refusal(status: status, message)
            return respond(context, status: .init(statusCode: status), type: "application/json", body: Array(response.body.utf8), keepAlive: false)
        }
        guard AccessPolicy.isPagePath(path) else { return collect(head, path: path, body: body, context: context) }
        guard head.method == .GET || head.method == .HEAD else {
            let answer = Inspector.refusal(status: 405, "use GET for \(path)")
            return respond(context, status: .methodNotAllowed, type: "application/json", body: Array(answer.body.utf8), keepAlive: keepAlive)
        }
        switch path {
        case "/", "/index.html":
            respond(context, status: .ok, type: "text/html; charset=utf-8", body: Array(InspectorPage.html.utf8), keepAlive: keepAlive)
        case "/favicon.ico":
            respond(context, status: .noContent, type: nil, body: [], keepAlive: keepAlive)
        case "/events":
            startStream(context)
        case "/api/state":
            respond(context, status: .ok, type: "application/json", body: server.inspector.stateJSON(liveClients: server.streams.count, extra: forwardCounts()), keepAlive: keepAlive)
        case "/api/wait":
            wait(context, query: query, keepAlive: keepAlive)
        default:  // /api/calls/ID
            guard let record = server.inspector.call(id: Int(path.dropFirst("/api/calls/".count)) ?? 0) else {
                return respond(context, status: .notFound, type: "application/json", body: Array(#"{"error":"this call is no longer kept"}"#.utf8), keepAlive: keepAlive)
            }
            var out: [UInt8] = []
            record.writeJSON(into: &out, includingJSON: true)
            respond(context, status: .ok, type: "application/json", body: out, keepAlive: keepAlive)
        }
    }

    /// A request to anything but the page and the read API: the collector's, open to
    /// cross-origin clients (analytics.js), answered 404 where it is not an endpoint.
    private func collect(_ head: HTTPRequestHead, path: String, body: [UInt8], context: ChannelHandlerContext) {
        let keepAlive = head.isKeepAlive
        server.touch()
        if head.method == .OPTIONS, Inspector.isCollectorPath(path) {
            bodyTooLarge = false
            return respond(context, status: .noContent, type: nil, body: [], keepAlive: keepAlive, cors: true)
        }
        if bodyTooLarge {
            bodyTooLarge = false
            let limit = server.inspector.limits.maximumBody
            let response = server.inspector.refuse(
                Inspector.Request(method: head.method.rawValue, path: path, contentType: head.headers.first(name: "content-type"), contentEncoding: nil, body: []),
                status: 413, "the body is larger than the limit of \(limit) bytes (--max-body)")
            return respond(context, status: .init(statusCode: response.status), type: "application/json", body: Array(response.body.utf8), keepAlive: false, cors: true)
        }
        let request = Inspector.Request(
            method: head.method.rawValue, path: path, contentType: head.headers.first(name: "content-type"),
            contentEncoding: head.headers.first(name: "content-encoding"), body: body)
        let response = server.inspector.ingest(request)
        if response.accepted, let forwarder = server.forwarder {
            let relayed = ["content-type", "content-encoding", "authorization", "user-agent"].compactMap { name in
                head.headers.first(name: name).map { (name, $0) }
            }
            forwarder.relay(Forwarder.Relayed(path: path, headers: relayed, body: Data(body)))
        }
        respond(context, status: .init(statusCode: response.status), type: "application/json", body: Array(response.body.utf8), keepAlive: keepAlive, cors: true)
    }

    private func forwardCounts() -> [(String, Int)] {
        guard let counts = server.forwarder?.counts else { return [] }
        return [("forwarded", counts.forwarded), ("forwardFailed", counts.failed), ("forwardDropped", counts.dropped)]
    }

    /// Writes one answer. Only the collector's (`cors`) let another origin read them,
    /// and they hold nothing collected; the page's and the API's do not.
    private func respond(
        _ context: ChannelHandlerContext, status: HTTPResponseStatus, type: String?, body: [UInt8], keepAlive: Bool, cors: Bool = false,
        extra: [(String, String)] = []
    ) {
        var headers = HTTPHeaders()
        if let type { headers.add(name: "content-type", value: type) }
        headers.add(name: "content-length", value: String(body.count))
        headers.add(name: "cache-control", value: "no-store")
        if cors {
            headers.add(name: "access-control-allow-origin", value: "*")
            headers.add(name: "access-control-allow-headers", value: "Content-Type, Content-Encoding, Authorization")
        } else {
            headers.add(name: "x-frame-options", value: "DENY")
        }
        headers.add(name: "x-content-type-options", value: "nosniff")
        for (name, value) in extra { headers.add(name: name, value: value) }
        if !keepAlive { headers.add(name: "connection", value: "close") }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        if !body.isEmpty { context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil) }
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            if !keepAlive { channel.close(promise: nil) }
        }
    }

    /// `/events`: a Server-Sent Events stream that stays open.
    private func startStream(_ context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "content-type", value: "text/event-stream")
        headers.add(name: "cache-control", value: "no-store")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: ": live\n\n")))), promise: nil)
        isStream = true
        server.streams.add(context.channel)
    }

    /// `/api/wait?calls=N&seconds=S`: answers once N calls or refused requests were
    /// recorded (or after S seconds, 20 unless given, at most 600), then half a second later, so a page's stream has them.
    /// Lets a headless browser's `--dump-dom` wait for live arrivals.
    private func wait(_ context: ChannelHandlerContext, query: String, keepAlive: Bool) {
        func number(_ name: String) -> Int? { AccessPolicy.queryValue(name, in: query).flatMap { Int($0) } }
        let wanted = number("calls") ?? 0
        // 20 seconds unless `seconds` says otherwise, at most ten minutes.
        let seconds = min(max(number("seconds") ?? 20, 0), 600)
        let inspector = server.inspector
        let channel = context.channel
        let deadline = NIODeadline.now() + .seconds(Int64(seconds))
        @Sendable func poll() {
            let totals = inspector.log.totals
            if totals.calls + totals.rejectedRequests >= wanted || NIODeadline.now() > deadline {
                channel.eventLoop.scheduleTask(in: .milliseconds(500)) {
                    // A 1×1 transparent GIF.
                    let gif: [UInt8] = [71, 73, 70, 56, 57, 97, 1, 0, 1, 0, 128, 0, 0, 0, 0, 0, 255, 255, 255, 33, 249, 4, 1, 0, 0, 0, 0, 44, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 68, 1, 0, 59]
                    var headers = HTTPHeaders()
                    headers.add(name: "content-type", value: "image/gif")
                    headers.add(name: "content-length", value: String(gif.count))
                    headers.add(name: "cache-control", value: "no-store")
                    channel.write(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers)), promise: nil)
                    channel.write(HTTPServerResponsePart.body(.byteBuffer(channel.allocator.buffer(bytes: gif))), promise: nil)
                    channel.writeAndFlush(HTTPServerResponsePart.end(nil)).whenComplete { _ in
                        if !keepAlive { channel.close(promise: nil) }
                    }
                }
            } else {
                channel.eventLoop.scheduleTask(in: .milliseconds(50)) { poll() }
            }
        }
        poll()
    }
}
#endif
