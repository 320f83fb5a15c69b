package corpus.objectlist

import com.example.shop.OrderItem
import com.example.shop.PaymentMethod
import com.example.shop.ProductCategory
import com.example.shop.ShopAnalytics

fun use(analytics: ShopAnalytics) {
    analytics.orderPlaced(
        orderID = "o-1",
        total = 19.0,
        method = PaymentMethod.card,
        itemCount = 1,
        placedAt = java.time.Instant.ofEpochMilli(0),
        items = listOf(OrderItem(itemID = "sku-1", itemName = "Dune", itemCategory = ProductCategory.books, price = 9.5, quantity = "2")) // expect-error
    )
}
