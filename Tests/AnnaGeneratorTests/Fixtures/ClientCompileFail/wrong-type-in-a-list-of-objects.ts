import { AnnaClient, ShopAnalytics } from "./shop.anna";

declare const client: AnnaClient;
const analytics = new ShopAnalytics(client);
analytics.orderPlaced({
  orderID: "o-1",
  total: 19,
  method: "card",
  itemCount: 1,
  placedAt: new Date(0),
  items: [{ itemID: "sku-1", itemName: "Dune", itemCategory: "books", price: 9.5, quantity: "2" }], // expect-error
});
