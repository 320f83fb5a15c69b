package corpus.date

import com.example.shop.PaymentMethod
import com.example.shop.ShopAnalytics

fun use(analytics: ShopAnalytics) {
    analytics.orderPlaced(orderID = "o-1", total = 19.0, method = PaymentMethod.card, itemCount = 1, placedAt = "2026-01-01", items = emptyList()) // expect-error
}
