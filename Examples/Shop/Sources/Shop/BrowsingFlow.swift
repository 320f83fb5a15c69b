import AnnaTesting
import ShopAnalytics

/// The home screen: a list of products whose rows carry the values tasks read.
final class HomeScreen: HeadlessScreen {
    let productList = HeadlessTable()
    let products: [(sku: String, title: String, category: ProductCategory, price: Double)] = [
        ("SKU-1001", "Swift book", .books, 39.90),
        ("SKU-2002", "Vinyl", .music, 12.50),
        ("SKU-3003", "Watering can", .homeAndGarden, 18.00),
    ]

    override func viewDidLoad() {
        view.addSubview(productList)
        analyzer.setSubAnalyzer(productList.analyzer, for: "productList")
        analyzer.enable(naming: "home")
    }

    func showProducts() {
        productList.display(rows: products.map(\.title))
        for (row, product) in products.enumerated() {
            guard let cell = productList.visibleCells[.init(section: 0, row: row)] else { continue }
            cell.analyzer.update(product.sku, for: "sku")
            cell.analyzer.update(product.category, for: "category")
            cell.analyzer.update(product.price, for: "price")
        }
    }
}

/// A product page with an Add to Cart button; named "product".
final class ProductScreen: HeadlessScreen {
    let addToCart = HeadlessButton()

    override func viewDidLoad() {
        view.addSubview(addToCart)
        analyzer.setSubAnalyzer(addToCart.analyzer, for: "addToCart")
        analyzer.enable(naming: "product")
    }
}

/// The cart tab; its values are what the cartViewed task reports.
final class CartScreen: HeadlessScreen {
    override func viewDidLoad() {
        analyzer.enable(naming: "cart")
    }
}

/// Drives a master/detail session on the headless responder tree: the tasks come
/// from shop.anna.yml (`TaskSet.shop`), the results go to `analytics` and are printed
/// with the manager's snapshot.
func runBrowsingFlow(analytics: AnalyticsService) async {
    let manager = Manager(service: analytics, tasks: [.shop])
    let delegate = RecordingManagerDelegate()
    manager.delegate = delegate
    manager.delegateQueue = delegate.queue
    let app = HeadlessApplication(manager: manager)

    let home = HomeScreen()
    let cart = CartScreen()
    let navigation = HeadlessNavigationController(root: home)
    let tabs = HeadlessTabBarController(tabs: [navigation, cart])
    app.window.show(tabs)
    home.showProducts()

    home.productList.select(row: 0)              // productViewed from the row's values
    let product = ProductScreen()
    navigation.push(product)                      // lands under the selected row
    product.addToCart.tap()                       // productAddedToCart, reading the row two levels up
    cart.analyzer.update(1, for: "itemCount")
    cart.analyzer.update(39.90, for: "total")
    tabs.select(1)                                // cartViewed

    let results = await delegate.waitForResults(count: 3)
    print("\nFocus-path tasks from shop.anna.yml reported \(results.count) events:")
    for result in results { print("  \(result)") }
    print("  (product screen's path: \(product.analyzer.path ?? "unresolved"))")
    print("\nSnapshot:")
    manager.logSnapshot()
}
