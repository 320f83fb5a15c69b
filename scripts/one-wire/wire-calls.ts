// The calls of the Shop example's `--wire-calls` mode (Examples/Shop/Sources/Shop/WireCalls.swift),
// made through the TypeScript that `anna generate --language typescript` writes for shop.anna.yml,
// and posted by a minimal client of Segment's HTTP Tracking API of its own, with Node's fetch.
// scripts/check-one-wire.py compiles it with `tsc --strict` and compares what reaches `anna inspect`.
//
// `node wire-calls.js --webview-messages FILE` makes the same calls through the module's
// annaWebViewClient instead, as a page in the app's WKWebView does, with a stand-in for
// WebKit's `webkit.messageHandlers.anna` that appends each message to FILE: the file is
// created or emptied first, then holds one line per call, the JSON string exactly as posted
// (message format 1), in the order of the calls. The app's bridge reads it on the Swift side.
import { AnnaCallOptions, AnnaClient, annaWebViewClient, ShopAnalytics } from "./shop.anna";

declare const process: { argv: string[]; exitCode: number | undefined };
declare const console: { log(line: string): void; error(line: string): void };
declare function require(module: "fs"): { writeFileSync(path: string, text: string): void; appendFileSync(path: string, text: string): void };
declare function fetch(url: string, init: { method: string; headers: { [name: string]: string }; body: string }):
  Promise<{ status: number; text(): Promise<string> }>;
declare function btoa(text: string): string;

/** Queues Segment calls and posts them as one batch, as analytics-node does with `flushAt`. */
class SegmentHTTPClient implements AnnaClient {
  private readonly queue: { [key: string]: unknown }[] = [];
  private userId: string | undefined;
  private sequence = 0;

  constructor(private readonly endpoint: string, private readonly writeKey: string, private readonly anonymousId: string) {}

  // The plan is versioned: `options.context` (the plan) is merged into the call's context, as analytics-next does.
  track(event: string, properties: { [key: string]: unknown }, options?: AnnaCallOptions): void {
    this.enqueue({ type: "track", event: event, properties: properties }, options);
  }
  identify(userId: string | undefined, traits: { [key: string]: unknown }): void {
    if (userId !== undefined) this.userId = userId;
    this.enqueue({ type: "identify", traits: traits }, undefined);
  }
  page(name: string, properties: { [key: string]: unknown }, options?: AnnaCallOptions): void {
    this.enqueue({ type: "page", name: name, properties: properties }, options);
  }
  group(groupId: string, traits: { [key: string]: unknown }): void {
    this.enqueue({ type: "group", groupId: groupId, traits: traits }, undefined);
  }

  private enqueue(call: { [key: string]: unknown }, options: AnnaCallOptions | undefined): void {
    this.sequence += 1;
    call["messageId"] = "node-" + this.sequence;
    call["timestamp"] = new Date().toISOString();
    call["anonymousId"] = this.anonymousId;
    if (this.userId !== undefined) call["userId"] = this.userId;
    const context: { [key: string]: unknown } = { library: { name: "one-wire-node", version: "1" } };
    if (options !== undefined) for (const key in options.context) context[key] = (options.context as { [key: string]: unknown })[key];
    call["context"] = context;
    this.queue.push(call);
  }

  async flush(): Promise<void> {
    const batch = this.queue.splice(0, this.queue.length);
    const response = await fetch(this.endpoint, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Authorization": "Basic " + btoa(this.writeKey + ":") },
      body: JSON.stringify({ batch: batch, sentAt: new Date().toISOString() }),
    });
    const answer = await response.text();
    if (response.status !== 200) throw new Error(this.endpoint + " answered " + response.status + ": " + answer);
  }
}

/** The calls of WireCalls.swift, in its order. */
function calls(shop: ShopAnalytics): void {
  shop.orderPlaced({
    orderID: "o-1", total: 19.5, method: "apple pay", itemCount: 3, placedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, 123)),
    items: [
      { itemID: "sku-1", itemName: "Dune", itemCategory: "home and garden", price: 9.75, quantity: 2 },
      { itemID: "sku-2", itemName: "Jazz record", itemCategory: "music", price: 5, quantity: 1 },
    ],
    giftMessage: "for you",
  });
  shop.productAddedToCart({ productID: "sku-2", quantity: 1, price: 5, coupon: "SPRING24" });
  shop.productAddedToCart({ productID: "sku-3", quantity: 1, price: 5 });
  shop.searchPerformed({ query: "dune", resultCount: 3, category: "books" });
  shop.checkoutStarted({ itemCount: 3, total: 24.5, delivery: "express" });
  shop.reviewSubmitted({ productID: "sku-1", rating: 5, hasPhoto: false });
  shop.promoBannerTapped({ campaign: "spring", link: "https://example.com/spring?a=1" });
  shop.screens.productDetail({ productID: "sku-1" });
  shop.identify("customer-42", { email: "a@example.com", loyaltyTier: "gold" });
  shop.setGlobals({ theme: "dark", experiment: "b" });
  shop.homeViewed();
  shop.screens.cart();
  shop.setGlobals({ experiment: null });
  shop.appOpened();
}

/**
 * The page's side of the web view: a stand-in for WebKit's message handler that appends each
 * posted string to `file` as a line. The page passes its PII on (`sendPII: isInApp`): the app's
 * providers decide, as they do for the app's own calls.
 */
function webViewCalls(file: string): void {
  require("fs").writeFileSync(file, "");
  let count = 0;
  const handler = {
    postMessage: (message: string) => {
      count += 1;
      require("fs").appendFileSync(file, message + "\n");
    },
  };
  (globalThis as unknown as { webkit: { messageHandlers: { [name: string]: typeof handler } } }).webkit = { messageHandlers: { anna: handler } };
  const client = annaWebViewClient();
  if (!client.isInApp) throw new Error("the stand-in message handler was not found");
  calls(new ShopAnalytics(client, { planBranch: "main", sendPII: client.isInApp }));
  console.log("wire calls to " + file + ": " + count + " messages");
}

async function main(): Promise<void> {
  if (process.argv[2] === "--webview-messages") {
    const file = process.argv[3];
    if (file === undefined) throw new Error("usage: node wire-calls.js --webview-messages FILE");
    webViewCalls(file);
    return;
  }
  const endpoint = process.argv[2];
  if (endpoint === undefined) throw new Error("usage: node wire-calls.js http://127.0.0.1:PORT/v1/batch | --webview-messages FILE");
  const client = new SegmentHTTPClient(endpoint, "shop-write-key", "node-wire");
  calls(new ShopAnalytics(client, { planBranch: "main" }));
  await client.flush();
  console.log("wire calls to " + endpoint + ": delivered");
}

main().catch((error: unknown) => {
  console.error(String(error));
  process.exitCode = 1;
});
