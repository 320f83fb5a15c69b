import { AnnaClient, ShopAnalytics } from "./shop.anna";

declare const client: AnnaClient;
const analytics = new ShopAnalytics(client);
analytics.cartViewed({ itemCount: "3", total: 19 }); // expect-error
