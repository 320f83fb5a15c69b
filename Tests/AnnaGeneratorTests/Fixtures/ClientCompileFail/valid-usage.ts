import { AnnaClient, AnnaViolation, OrderItem, ShopAnalytics } from "./shop.anna";

const sent: Array<[string, string, { [key: string]: unknown }]> = [];
const client: AnnaClient = {
  track: (event, properties) => { sent.push(["track", event, properties]); },
  identify: (userId, traits) => { sent.push(["identify", userId ?? "", traits]); },
  page: (name, properties) => { sent.push(["page", name, properties]); },
  group: (groupId, traits) => { sent.push(["group", groupId, traits]); },
};
const violations: AnnaViolation[] = [];
const analytics = new ShopAnalytics(client, { onViolation: (violation) => { violations.push(violation); } });
const item: OrderItem = { itemID: "sku-1", itemName: "Dune", itemCategory: "books", price: 9.5, quantity: 2 };
analytics.appOpened();
analytics.searchPerformed({ query: "dune", resultCount: 3 });
analytics.productAddedToCart({ productID: "sku-1", quantity: 1, price: 9.5, coupon: "SPRING" });
analytics.orderPlaced({
  orderID: "o-1", total: 19, method: "apple pay", itemCount: 2, placedAt: new Date(0), items: [item],
});
analytics.promoBannerTapped({ campaign: "spring", link: "https://example.com/spring" });
analytics.screens.productDetail({ productID: "sku-1" });
analytics.screens.cart();
analytics.identify("customer-42", { email: "a@example.com", loyaltyTier: "gold" });
analytics.setGlobals({ theme: "dark" });
analytics.setGlobals({ theme: null });
