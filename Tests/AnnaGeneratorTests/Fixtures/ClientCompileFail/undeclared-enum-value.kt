package corpus.enumvalue

import com.example.shop.ProductCategory
import com.example.shop.ShopAnalytics

fun use(analytics: ShopAnalytics) {
    analytics.productViewed(productID = "sku-1", category = ProductCategory.garden, price = 9.5) // expect-error
}
