import _AnnaGeneratorCore

extension TypeScriptSyntax {
    /// The version of the messages ``webViewClient(naming:isVersioned:)`` posts: the
    /// contract with the app's bridge, which refuses a version it does not read.
    static let webViewMessageVersion = 1

    /// The end of every module: `annaNaming`, and `annaWebViewClient`, an `AnnaClient`
    /// that posts each call to the app through WebKit's message handler when the page
    /// runs in the app's `WKWebView`, and hands it to the page's own client otherwise.
    ///
    /// One JSON string per call (message format 1): `{"anna":1,"type":"track","event",
    /// "properties","naming","context"}`, `screen` for `page` (`name` for `event`),
    /// `identify` (`userId`, `null` for none, `traits`), `group` (`groupId`, `traits`),
    /// `reset`, `optOut` (`optedOut`) and `consent` (`granted`). `context` is the call's
    /// `options.context` (the plan), left out in an unversioned plan. The handler is
    /// looked up at each call, through a structural type: no DOM library is needed.
    /// Every name and signature here is unchanged by the spec, so it is one text with
    /// the naming and, in a versioned plan, the third argument of `track` and `page`.
    static func webViewClient(naming: ClientNaming, isVersioned: Bool) -> String {
        let options = isVersioned ? ", options?: AnnaCallOptions" : ""
        let context = isVersioned ? ", context: options === undefined ? undefined : options.context" : ""
        let passed = isVersioned ? ", options" : ""
        let anna = "anna: \(webViewMessageVersion)"
        return #"""

/** The names this module sends: the spec's (`"spec"`), or snake_case (`"snake_case"`, `anna generate --naming snake_case`). */
export const annaNaming: "spec" | "snake_case" = \#(ClientText.quoted(naming.rawValue));

/** How `annaWebViewClient` finds the app. */
export interface AnnaWebViewOptions {
  /** The name the app registered its script message handler under; `"anna"` when not set. */
  readonly handlerName?: string;
}

/**
 * The app's client, for a page the app shows in its `WKWebView`: see `annaWebViewClient`.
 * Outside the app, `reset`, `setOptedOut` and `setConsent` do nothing: the page's own
 * client has its own calls for them.
 */
export interface AnnaWebViewClient extends AnnaClient {
  /** Whether the app's message handler is there now, so that calls go to the app. */
  readonly isInApp: boolean;
  /** Asks the app to forget the user, as Segment's `reset`; the app refuses unless it allows `reset`. */
  reset(): void;
  /** Asks the app to opt the user out, or back in; the app refuses unless it allows `optOut`. */
  setOptedOut(optedOut: boolean): void;
  /** Asks the app to set the consent categories the user granted; the app refuses unless it allows `consent`. */
  setConsent(granted: ReadonlyArray<string>): void;
}

/** WebKit's `window.webkit.messageHandlers`, as much of it as the client reads. */
interface AnnaWebKitGlobal {
  readonly webkit?: { readonly messageHandlers?: { readonly [name: string]: AnnaMessageHandler | undefined } };
}

interface AnnaMessageHandler {
  postMessage(message: string): void;
}

/** The app's message handler, when the page runs in the app's web view and the app installed it. */
function annaMessageHandler(name: string): AnnaMessageHandler | undefined {
  if (typeof globalThis === "undefined") return undefined;
  const webkit = (globalThis as unknown as AnnaWebKitGlobal).webkit;
  const handlers = webkit === undefined || webkit === null ? undefined : webkit.messageHandlers;
  const handler = handlers === undefined || handlers === null ? undefined : handlers[name];
  return handler !== undefined && handler !== null && typeof handler.postMessage === "function" ? handler : undefined;
}

class AnnaWebView implements AnnaWebViewClient {
  declare readonly isInApp: boolean;

  constructor(private readonly fallback: AnnaClient | undefined, private readonly handlerName: string) {
    // A getter defined at run time: the handler may come after the client, and ES3 targets have no accessors.
    Object.defineProperty(this, "isInApp", { get: () => annaMessageHandler(handlerName) !== undefined, enumerable: true });
  }

  track(event: string, properties: { [key: string]: unknown }\#(options)): void {
    const message = { \#(anna), type: "track", event: event, properties: properties, naming: annaNaming\#(context) };
    if (!this.post(message) && this.fallback !== undefined) this.fallback.track(event, properties\#(passed));
  }

  page(name: string, properties: { [key: string]: unknown }\#(options)): void {
    const message = { \#(anna), type: "screen", name: name, properties: properties, naming: annaNaming\#(context) };
    if (!this.post(message) && this.fallback !== undefined) this.fallback.page(name, properties\#(passed));
  }

  identify(userId: string | undefined, traits: { [key: string]: unknown }): void {
    const message = { \#(anna), type: "identify", userId: userId === undefined ? null : userId, traits: traits, naming: annaNaming };
    if (!this.post(message) && this.fallback !== undefined) this.fallback.identify(userId, traits);
  }

  group(groupId: string, traits: { [key: string]: unknown }): void {
    const message = { \#(anna), type: "group", groupId: groupId, traits: traits, naming: annaNaming };
    if (!this.post(message) && this.fallback !== undefined) this.fallback.group(groupId, traits);
  }

  reset(): void {
    this.post({ \#(anna), type: "reset" });
  }

  setOptedOut(optedOut: boolean): void {
    this.post({ \#(anna), type: "optOut", optedOut: optedOut });
  }

  setConsent(granted: ReadonlyArray<string>): void {
    this.post({ \#(anna), type: "consent", granted: granted.slice() });
  }

  /** Posts one message as a JSON string; false when the page is not in the app. */
  private post(message: object): boolean {
    const handler = annaMessageHandler(this.handlerName);
    if (handler === undefined) return false;
    handler.postMessage(JSON.stringify(message));
    return true;
  }
}

/**
 * An `AnnaClient` for a page the app shows in its `WKWebView`. Each call is posted to
 * the app as one JSON string through `webkit.messageHandlers[handlerName]`, looked up
 * at each call; the app checks it against its compiled plan and reports it through
 * its own analytics service, with its identity, consent, opt-out and PII rules. When
 * the handler is not there (the page is not in the app), each call goes to `fallback`,
 * the page's own client, or, without one, is dropped silently.
 *
 * In the app, the app decides what to do with PII: give the generated class
 * `sendPII: client.isInApp` so that the plan's PII values reach the app, whose
 * providers each keep or remove them, and stay out of the fallback.
 *
 * @param fallback The page's own client, for when the page is not in the app.
 * @param options The handler's name, `"anna"` by default.
 */
export function annaWebViewClient(fallback?: AnnaClient, options: AnnaWebViewOptions = {}): AnnaWebViewClient {
  return new AnnaWebView(fallback, options.handlerName === undefined ? "anna" : options.handlerName);
}

"""#
    }
}
