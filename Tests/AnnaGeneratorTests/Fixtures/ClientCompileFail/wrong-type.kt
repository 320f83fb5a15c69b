package corpus.wrongtype

import com.example.shop.ShopAnalytics

fun use(analytics: ShopAnalytics) {
    analytics.cartViewed(itemCount = "3", total = 19.0) // expect-error
}
