// The calls of the Shop example's `--wire-calls` mode (Examples/Shop/Sources/Shop/WireCalls.swift),
// made through the Kotlin that `anna generate --language kotlin` writes for shop.anna.yml, and
// posted by a minimal client of Segment's HTTP Tracking API of its own, with HttpURLConnection.
// scripts/check-one-wire.py compiles it with kotlinc and compares what reaches `anna inspect`.
package wire

import com.example.shop.AnalyticsGlobalTheme
import com.example.shop.CheckoutStartedDelivery
import com.example.shop.OrderItem
import com.example.shop.PaymentMethod
import com.example.shop.ProductCategory
import com.example.shop.ShopAnalytics
import com.example.shop.UserTraitLoyaltyTier
import java.net.HttpURLConnection
import java.net.URL
import java.time.Instant
import kotlin.system.exitProcess

/** JSON for the values the generated code passes: maps, lists, strings, numbers, booleans and null. */
fun json(value: Any?): String = when (value) {
    null -> "null"
    is String -> {
        val out = StringBuilder("\"")
        for (c in value) {
            when {
                c == '"' -> out.append("\\\"")
                c == '\\' -> out.append("\\\\")
                c < ' ' -> out.append(String.format("\\u%04x", c.toInt()))
                else -> out.append(c)
            }
        }
        out.append('"').toString()
    }
    is Boolean, is Int, is Long -> value.toString()
    is Double -> if (value.isFinite()) value.toString() else "null"
    is Map<*, *> -> value.entries.joinToString(",", "{", "}") { json(it.key.toString()) + ":" + json(it.value) }
    is List<*> -> value.joinToString(",", "[", "]") { json(it) }
    else -> throw IllegalArgumentException("no JSON for " + value.javaClass.name)
}

/** Queues Segment calls and posts them as one batch, as analytics-kotlin does with `flushAt`. */
class SegmentHTTPClient(private val endpoint: String, private val writeKey: String, private val anonymousId: String) :
    ShopAnalytics.AnnaClient {
    private val queue = ArrayList<Map<String, Any?>>()
    private var userId: String? = null

    // The plan is versioned: the call's context (the plan) is merged into its context, as an
    // analytics-kotlin enrichment closure does.
    override fun track(name: String, properties: Map<String, Any?>, context: Map<String, Any?>) =
        enqueue(mapOf("type" to "track", "event" to name, "properties" to properties), context)
    override fun identify(userId: String?, traits: Map<String, Any?>) {
        if (userId != null) this.userId = userId
        enqueue(mapOf("type" to "identify", "traits" to traits), emptyMap())
    }
    override fun screen(name: String, properties: Map<String, Any?>, context: Map<String, Any?>) =
        enqueue(mapOf("type" to "screen", "name" to name, "properties" to properties), context)
    override fun group(groupId: String, traits: Map<String, Any?>) =
        enqueue(mapOf("type" to "group", "groupId" to groupId, "traits" to traits), emptyMap())

    private fun enqueue(fields: Map<String, Any?>, context: Map<String, Any?>) {
        val call = LinkedHashMap(fields)
        call["messageId"] = "jvm-" + (queue.size + 1)
        call["timestamp"] = Instant.now().toString()
        call["anonymousId"] = anonymousId
        userId?.let { call["userId"] = it }
        call["context"] = mapOf("library" to mapOf("name" to "one-wire-jvm", "version" to "1")) + context
        queue.add(call)
    }

    fun flush() {
        val body = json(mapOf("batch" to queue, "sentAt" to Instant.now().toString())).toByteArray(Charsets.UTF_8)
        val connection = URL(endpoint).openConnection() as HttpURLConnection
        connection.requestMethod = "POST"
        connection.doOutput = true
        connection.connectTimeout = 5000
        connection.readTimeout = 5000
        connection.setRequestProperty("Content-Type", "application/json")
        val credentials = java.util.Base64.getEncoder().encodeToString((writeKey + ":").toByteArray(Charsets.UTF_8))
        connection.setRequestProperty("Authorization", "Basic " + credentials)
        connection.outputStream.use { it.write(body) }
        val status = connection.responseCode
        val stream = if (status < 400) connection.inputStream else connection.errorStream
        val answer = stream?.bufferedReader()?.use { it.readText() } ?: ""
        if (status != 200) throw IllegalStateException(endpoint + " answered " + status + ": " + answer)
        queue.clear()
    }
}

fun main(args: Array<String>) {
    if (args.size != 1) {
        System.err.println("usage: java -jar wire.jar http://127.0.0.1:PORT/v1/batch")
        exitProcess(64)
    }
    val client = SegmentHTTPClient(args[0], "shop-write-key", "jvm-wire")
    val shop = ShopAnalytics(client, ShopAnalytics.AnnaOptions(planBranch = "main"))
    shop.orderPlaced(
        orderID = "o-1", total = 19.5, method = PaymentMethod.applePay, itemCount = 3,
        placedAt = Instant.parse("2026-01-01T00:00:00.123Z"),
        items = listOf(
            OrderItem(itemID = "sku-1", itemName = "Dune", itemCategory = ProductCategory.homeAndGarden, price = 9.75, quantity = 2),
            OrderItem(itemID = "sku-2", itemName = "Jazz record", itemCategory = ProductCategory.music, price = 5.0, quantity = 1)
        ),
        giftMessage = "for you"
    )
    shop.productAddedToCart(productID = "sku-2", quantity = 1, price = 5.0, coupon = "SPRING24")
    shop.productAddedToCart(productID = "sku-3", quantity = 1, price = 5.0)
    shop.searchPerformed(query = "dune", resultCount = 3, category = ProductCategory.books)
    shop.checkoutStarted(itemCount = 3, total = 24.5, delivery = CheckoutStartedDelivery.express)
    shop.reviewSubmitted(productID = "sku-1", rating = 5, hasPhoto = false)
    shop.promoBannerTapped(campaign = "spring", link = java.net.URI("https://example.com/spring?a=1"))
    shop.screens.productDetail(productID = "sku-1")
    shop.identify("customer-42", email = "a@example.com", loyaltyTier = UserTraitLoyaltyTier.gold)
    shop.globals.theme(AnalyticsGlobalTheme.dark)
    shop.globals.experiment("b")
    shop.homeViewed()
    shop.screens.cart()
    shop.globals.experiment(null)
    shop.appOpened()
    client.flush()
    println("wire calls to " + args[0] + ": delivered")
}
