import Anna
import AnnaSwiftUI
import SwiftUI

/// The favourites, in SwiftUI: `/favorites` appears, and each row is
/// `/favorites/row` with its index; a tap selects it.
struct FavoritesView: View {
    let manager: Manager
    @State private var favorites = ["The Swift Book", "Headphones", "Desk Lamp"]

    var body: some View {
        NavigationStack {
            List {
                ForEach(Array(favorites.enumerated()), id: \.offset) { index, name in
                    NavigationLink(value: name) { Text(name) }
                        .analyzer("row", index: index, taps: .selection)
                }
            }
            .analyzer("favorites")
            .navigationTitle("Favorites")
            .navigationDestination(for: String.self) { name in
                Text(name).analyzer("detail", placement: .pushed)
            }
        }
        .analyzerRoot(manager)
    }
}
