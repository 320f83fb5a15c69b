import Anna
import SwiftUI
import UIKit

/// The scene: a tab bar with the UIKit product list and the SwiftUI favourites.
final class SceneDelegate: UIResponder, UIWindowSceneDelegate {
    var window: UIWindow?

    func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions) {
        guard let scene = scene as? UIWindowScene,
              let app = UIApplication.shared.delegate as? AppDelegate else { return }
        let products = UINavigationController(rootViewController: ProductListViewController(analytics: app.analytics))
        products.tabBarItem = UITabBarItem(title: "Products", image: UIImage(systemName: "list.bullet"), tag: 0)
        let favorites = UIHostingController(rootView: FavoritesView(manager: app.manager))
        favorites.tabBarItem = UITabBarItem(title: "Favorites", image: UIImage(systemName: "heart"), tag: 1)
        let tabs = UITabBarController()
        tabs.viewControllers = [products, favorites]
        let window = UIWindow(windowScene: scene)
        window.rootViewController = tabs
        window.makeKeyAndVisible()
        self.window = window
    }
}
