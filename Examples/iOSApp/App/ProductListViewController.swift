import Anna
import AnnaUIKit
import UIKit

/// A product in the list.
struct Product: Hashable, Sendable {
    let id: String
    let name: String
}

/// The master list: named `products`, its table `tableView`, so that a selected row is
/// `/products/tableView/cell/did-select` and matches shop-ios.anna.yml's task.
final class ProductListViewController: UITableViewController {
    private let analytics: AnalyticsService
    private let products = [Product(id: "SKU-1", name: "The Swift Book"), Product(id: "SKU-2", name: "Headphones")]

    init(analytics: AnalyticsService) {
        self.analytics = analytics
        super.init(style: .plain)
        title = "Products"
    }

    required init?(coder: NSCoder) { fatalError("init(coder:) is not used") }

    override func viewDidLoad() {
        super.viewDidLoad()
        tableView.register(UITableViewCell.self, forCellReuseIdentifier: "product")
        analyzer.setSubAnalyzer(tableView.analyzer, for: "tableView")
        analyzer.enable(naming: "products")
    }

    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        analytics.screen(.productList)      // a typed screen call from the spec
    }

    override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { products.count }

    override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "product", for: indexPath)
        let product = products[indexPath.row]
        var content = cell.defaultContentConfiguration()
        content.text = product.name
        cell.contentConfiguration = content
        // The task reads `$value(productID)` from the cell's node.
        cell.analyzer.update(product.id, for: "productID")
        return cell
    }

    // Implemented, so that automatic capture sees rows appear (it adds no method).
    override func tableView(_ tableView: UITableView, willDisplay cell: UITableViewCell, forRowAt indexPath: IndexPath) {}

    override func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {
        // The pushed detail lands under the selected cell:
        // /products/tableView/cell/detail.
        navigationController?.pushViewController(ProductDetailViewController(product: products[indexPath.row]), animated: true)
    }
}

/// A product's page, named `detail`, with an Add to Cart button named `addToCart`.
final class ProductDetailViewController: UIViewController {
    private let product: Product
    private let addToCart = UIButton(type: .system)

    init(product: Product) {
        self.product = product
        super.init(nibName: nil, bundle: nil)
        title = product.name
    }

    required init?(coder: NSCoder) { fatalError("init(coder:) is not used") }

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemBackground
        addToCart.setTitle("Add to Cart", for: .normal)
        addToCart.addTarget(self, action: #selector(addToCartTapped), for: .touchUpInside)
        addToCart.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(addToCart)
        NSLayoutConstraint.activate([
            addToCart.centerXAnchor.constraint(equalTo: view.centerXAnchor),
            addToCart.centerYAnchor.constraint(equalTo: view.centerYAnchor),
        ])
        // The button's target-action records /…/detail/addToCart/target-action.
        analyzer.setSubAnalyzer(addToCart.analyzer, for: "addToCart")
        analyzer.enable(naming: "detail")
    }

    @objc private func addToCartTapped() {
        // The app's own work; the event comes from the spec's task.
    }
}
