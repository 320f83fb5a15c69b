// WKWebView exists on iOS, macOS and visionOS; tvOS and watchOS have no WebKit to import.
#if canImport(WebKit) && !os(tvOS) && !os(watchOS)
import AnnaWebContent
import WebKit

extension WebContentBridge {
    /// Installs the bridge's script message handler on a web view's configuration, in
    /// the page's content world, under ``Configuration/handlerName``: the page then
    /// posts with `window.webkit.messageHandlers.anna.postMessage(text)`. Call it before
    /// the web view is created from the configuration.
    ///
    /// ```swift
    /// let configuration = WKWebViewConfiguration()
    /// bridge.install(in: configuration)
    /// let webView = WKWebView(frame: .zero, configuration: configuration)
    /// ```
    /// - Parameter configuration: The web view's configuration.
    /// - Returns: The web view's channel, with its own rate bucket.
    @MainActor
    @discardableResult
    public func install(in configuration: WKWebViewConfiguration) -> WebContentChannel {
        install(in: configuration.userContentController)
    }

    /// Installs the bridge's script message handler on a user content controller, in
    /// the page's content world, under ``Configuration/handlerName``.
    /// - Parameter controller: The controller of one web view.
    /// - Returns: The web view's channel, with its own rate bucket.
    @MainActor
    @discardableResult
    public func install(in controller: WKUserContentController) -> WebContentChannel {
        let channel = makeChannel()
        controller.add(WebContentMessageHandler(channel: channel), contentWorld: .page, name: configuration.handlerName)
        return channel
    }

    /// Removes the handler that `install(in:)` added.
    /// - Parameter controller: The controller it was installed on.
    @MainActor
    public func uninstall(from controller: WKUserContentController) {
        controller.removeScriptMessageHandler(forName: configuration.handlerName, contentWorld: .page)
    }
}

/// Hands each message WebKit receives to a channel, with the frame's security origin.
///
/// `WKUserContentController` retains its handlers. This one holds only the channel
/// (which holds the bridge and the service), never the web view, its controller or a
/// view controller, so the controller's retain makes no cycle: it acts as the weak
/// proxy a view controller would otherwise need.
@MainActor
final class WebContentMessageHandler: NSObject, WKScriptMessageHandler {
    private let channel: WebContentChannel

    init(channel: WebContentChannel) {
        self.channel = channel
    }

    func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage) {
        let origin = message.frameInfo.securityOrigin
        channel.receive(message.body, from: WebContentOrigin(scheme: origin.protocol, host: origin.host, port: origin.port))
    }
}
#endif
