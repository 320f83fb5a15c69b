// Makes the same calls as Wire.kt through the TypeScript generated from the Shop
// example's spec, and prints each call and violation as one JSON line.
import { AnnaCallOptions, AnnaClient, ShopAnalytics } from "./shop.anna";

declare const console: { log(line: string): void };

function canonical(value: unknown): string {
  if (Array.isArray(value)) return "[" + value.map(canonical).join(",") + "]";
  if (value !== null && typeof value === "object") {
    const record = value as { [key: string]: unknown };
    return "{" + Object.keys(record).sort().map((key) => JSON.stringify(key) + ":" + canonical(record[key])).join(",") + "}";
  }
  return JSON.stringify(value);
}

function print(kind: string, name: string, properties: { [key: string]: unknown }, options?: AnnaCallOptions): void {
  // The plan is versioned: an event and a screen carry `context.plan` in their options.
  const line: { [key: string]: unknown } = { kind: kind, name: name, properties: properties };
  if (options !== undefined) line["plan"] = options.context.plan;
  console.log(canonical(line));
}

const client: AnnaClient = {
  track: (event, properties, options) => print("track", event, properties, options),
  identify: (userId, traits) => print("identify", userId ?? "", traits),
  page: (name, properties, options) => print("screen", name, properties, options),
  group: (groupId, traits) => print("group", groupId, traits),
};
const shop = new ShopAnalytics(client, {
  onViolation: (violation) => print("violation", violation.call, { property: violation.property, rule: violation.rule }),
  planBranch: "main",
});
shop.orderPlaced({
  orderID: "o-1", total: 19.5, method: "apple pay", itemCount: 2, placedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, 123)),
  items: [{ itemID: "sku-1", itemName: "Dune", itemCategory: "home and garden", price: 9.75, quantity: 2 }],
  giftMessage: "for you",
});
shop.productAddedToCart({ productID: "sku-2", quantity: 120, price: 5, coupon: "spring" });
shop.productAddedToCart({ productID: "sku-3", quantity: 1, price: 5 });
shop.promoBannerTapped({ campaign: "spring", link: "https://example.com/spring?a=1" });
shop.screens.productDetail({ productID: "sku-1" });
shop.identify("customer-42", { email: "a@example.com", loyaltyTier: "gold" });
shop.setGlobals({ theme: "dark", experiment: "b" });
shop.homeViewed();
shop.setGlobals({ experiment: null });
shop.appOpened();
