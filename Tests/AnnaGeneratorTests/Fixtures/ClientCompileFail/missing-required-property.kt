package corpus.missing

import com.example.shop.ShopAnalytics

fun use(analytics: ShopAnalytics) {
    analytics.productViewed(productID = "sku-1", price = 9.5) // expect-error
}
