import { AnnaClient, ShopAnalytics } from "./shop.anna";

declare const client: AnnaClient;
const analytics = new ShopAnalytics(client);
analytics.orderPlaced({ orderID: "o-1", total: 19, method: "card", itemCount: 1, placedAt: "2026-01-01", items: [] }); // expect-error
