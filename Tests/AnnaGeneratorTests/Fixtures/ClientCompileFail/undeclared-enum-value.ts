import { AnnaClient, ShopAnalytics } from "./shop.anna";

declare const client: AnnaClient;
const analytics = new ShopAnalytics(client);
analytics.productViewed({ productID: "sku-1", category: "garden", price: 9.5 }); // expect-error
