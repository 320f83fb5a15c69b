package corpus.valid

import com.example.shop.OrderItem
import com.example.shop.ProductCategory
import com.example.shop.PaymentMethod
import com.example.shop.ShopAnalytics
import com.example.shop.UserTraitLoyaltyTier
import com.example.shop.AnalyticsGlobalTheme

class Recorder : ShopAnalytics.AnnaClient {
    val sent = ArrayList<Pair<String, Map<String, Any?>>>()
    // The Shop plan is versioned: track and screen take the call's context, {"plan": {...}}.
    override fun track(name: String, properties: Map<String, Any?>, context: Map<String, Any?>) { sent.add(Pair(name, properties)) }
    override fun identify(userId: String?, traits: Map<String, Any?>) { sent.add(Pair("identify", traits)) }
    override fun screen(name: String, properties: Map<String, Any?>, context: Map<String, Any?>) { sent.add(Pair(name, properties)) }
    override fun group(groupId: String, traits: Map<String, Any?>) { sent.add(Pair("group", traits)) }
}

fun use() {
    val violations = ArrayList<ShopAnalytics.AnnaViolation>()
    val analytics = ShopAnalytics(Recorder(), ShopAnalytics.AnnaOptions(onViolation = { violations.add(it) }, planBranch = "main"))
    val item = OrderItem(itemID = "sku-1", itemName = "Dune", itemCategory = ProductCategory.books, price = 9.5, quantity = 2)
    analytics.appOpened()
    analytics.searchPerformed(query = "dune", resultCount = 3)
    analytics.productAddedToCart(productID = "sku-1", quantity = 1, price = 9.5, coupon = "SPRING")
    analytics.orderPlaced(
        orderID = "o-1", total = 19.0, method = PaymentMethod.applePay, itemCount = 2,
        placedAt = java.time.Instant.ofEpochMilli(0), items = listOf(item)
    )
    analytics.promoBannerTapped(campaign = "spring", link = java.net.URI("https://example.com/spring"))
    analytics.screens.productDetail(productID = "sku-1")
    analytics.screens.cart()
    analytics.identify("customer-42", email = "a@example.com", loyaltyTier = UserTraitLoyaltyTier.gold)
    analytics.globals.theme(AnalyticsGlobalTheme.dark)
    analytics.globals.theme(null)
}
