// Makes the same calls as wire.ts through the Kotlin generated from the Shop
// example's spec, and prints each call and violation as one JSON line.
package wire

import com.example.shop.AnalyticsGlobalTheme
import com.example.shop.OrderItem
import com.example.shop.PaymentMethod
import com.example.shop.ProductCategory
import com.example.shop.ShopAnalytics
import com.example.shop.UserTraitLoyaltyTier

fun canonical(value: Any?): String = when (value) {
    null -> "null"
    is String -> "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\""
    is Map<*, *> -> value.keys.map { it.toString() }.sorted().joinToString(",", "{", "}") { canonical(it) + ":" + canonical(value[it]) }
    is List<*> -> value.joinToString(",", "[", "]") { canonical(it) }
    else -> value.toString()
}

fun print(kind: String, name: String, properties: Map<String, Any?>, context: Map<String, Any?>? = null) {
    // The plan is versioned: an event and a screen carry `context.plan` in their context.
    val line = linkedMapOf<String, Any?>("kind" to kind, "name" to name, "properties" to properties)
    if (context != null) line["plan"] = context["plan"]
    println(canonical(line))
}

class Printer : ShopAnalytics.AnnaClient {
    override fun track(name: String, properties: Map<String, Any?>, context: Map<String, Any?>) = print("track", name, properties, context)
    override fun identify(userId: String?, traits: Map<String, Any?>) = print("identify", userId ?: "", traits)
    override fun screen(name: String, properties: Map<String, Any?>, context: Map<String, Any?>) = print("screen", name, properties, context)
    override fun group(groupId: String, traits: Map<String, Any?>) = print("group", groupId, traits)
}

fun main() {
    val shop = ShopAnalytics(Printer(), ShopAnalytics.AnnaOptions(onViolation = {
        print("violation", it.call, mapOf("property" to it.property, "rule" to it.rule))
    }, planBranch = "main"))
    shop.orderPlaced(
        orderID = "o-1", total = 19.5, method = PaymentMethod.applePay, itemCount = 2,
        placedAt = java.time.Instant.parse("2026-01-01T00:00:00.123Z"),
        items = listOf(OrderItem(itemID = "sku-1", itemName = "Dune", itemCategory = ProductCategory.homeAndGarden, price = 9.75, quantity = 2)),
        giftMessage = "for you"
    )
    shop.productAddedToCart(productID = "sku-2", quantity = 120, price = 5.0, coupon = "spring")
    shop.productAddedToCart(productID = "sku-3", quantity = 1, price = 5.0)
    shop.promoBannerTapped(campaign = "spring", link = java.net.URI("https://example.com/spring?a=1"))
    shop.screens.productDetail(productID = "sku-1")
    shop.identify("customer-42", email = "a@example.com", loyaltyTier = UserTraitLoyaltyTier.gold)
    shop.globals.theme(AnalyticsGlobalTheme.dark)
    shop.globals.experiment("b")
    shop.homeViewed()
    shop.globals.experiment(null)
    shop.appOpened()
}
