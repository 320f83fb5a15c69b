// The generated module's annaWebViewClient in Node: first outside the app (no
// `webkit`), with and without the page's own client, then inside it, with a fake
// `webkit.messageHandlers.anna` installed after the client was made. Prints one JSON
// line per message posted (the string as posted), per call the fallback received, and
// per `isInApp` read. Compiled with `--lib es2019`: no DOM types.
import { AnnaCallOptions, AnnaClient, annaNaming, annaWebViewClient, OrderItem, ShopAnalytics } from "./shop.anna";

declare const console: { log(line: string): void };

type Global = { webkit?: { messageHandlers?: { [name: string]: { postMessage?: unknown } } } };
const global = globalThis as unknown as Global;

function fallback(kind: string, name: string | undefined, properties: { [key: string]: unknown }, options?: AnnaCallOptions): void {
  const line: { [key: string]: unknown } = { fallback: kind, name: name === undefined ? null : name, properties: properties };
  if (options !== undefined) line["context"] = options.context;
  console.log(JSON.stringify(line));
}

const pageClient: AnnaClient = {
  track: (event, properties, options) => fallback("track", event, properties, options),
  identify: (userId, traits) => fallback("identify", userId, traits),
  page: (name, properties, options) => fallback("page", name, properties, options),
  group: (groupId, traits) => fallback("group", groupId, traits),
};

const item: OrderItem = { itemID: "sku-1", itemName: "Dune", itemCategory: "home and garden", price: 9.75, quantity: 2 };

function calls(shop: ShopAnalytics): void {
  const items = [item, { ...item, itemID: "sku-2", itemCategory: "music" as const, quantity: 1 }];
  const placedAt = new Date(Date.UTC(2026, 0, 1, 0, 0, 0, 123));
  shop.orderPlaced({ orderID: "o-1", total: 19.5, method: "apple pay", itemCount: 3, placedAt: placedAt, items: items, giftMessage: "for you" });
  shop.productAddedToCart({ productID: "sku-3", quantity: 1, price: 5 });
  shop.screens.productDetail({ productID: "sku-1" });
  shop.identify("customer-42", { email: "a@example.com", loyaltyTier: "gold" });
}

// Outside the app, with the page's own client: it gets every call, and no PII.
const outside = annaWebViewClient(pageClient);
console.log(JSON.stringify({ isInApp: outside.isInApp }));
calls(new ShopAnalytics(outside, { sendPII: outside.isInApp, planBranch: "main" }));
outside.reset();
outside.setOptedOut(true);
outside.setConsent(["analytics"]);

// Outside the app, without one: every call is dropped.
const dropped = annaWebViewClient();
calls(new ShopAnalytics(dropped, { planBranch: "main" }));
dropped.group("team-1", {});
dropped.reset();

// A handler without postMessage is not the app's.
global.webkit = { messageHandlers: { anna: {} } };
console.log(JSON.stringify({ isInApp: dropped.isInApp }));

// Inside the app, made before WebKit's handler is there.
const web = annaWebViewClient(pageClient);
global.webkit = {
  messageHandlers: {
    anna: { postMessage: (message: unknown) => console.log(typeof message === "string" ? message : JSON.stringify({ notAString: true })) },
  },
};
console.log(JSON.stringify({ isInApp: web.isInApp, dropped: dropped.isInApp, naming: annaNaming }));
const shop = new ShopAnalytics(web, { sendPII: web.isInApp, planBranch: "main" });
calls(shop);
shop.setGlobals({ theme: "dark", experiment: "b" });
shop.homeViewed();
shop.identify(undefined, { loyaltyTier: "silver" });
web.group("team-1", { plan: "pro", seats: 3 });
// A call without options (as an unversioned plan's) has no context.
web.track("appOpened", {});
web.reset();
web.setOptedOut(true);
web.setOptedOut(false);
web.setConsent(["analytics", "marketing"]);
web.setConsent([]);

// Another handler name: not installed, so the fallback gets the call.
const named = annaWebViewClient(pageClient, { handlerName: "shop" });
console.log(JSON.stringify({ isInApp: named.isInApp }));
named.track("appOpened", {});
