/// A change of the granted consent categories, applied in the order the app made it.
enum ConsentChange: Sendable {
    case grant(Set<ConsentCategory>)
    case revoke(Set<ConsentCategory>)
    case set(Set<ConsentCategory>)

    func apply(to granted: inout Set<ConsentCategory>) {
        switch self {
        case .grant(let categories): granted.formUnion(categories)
        case .revoke(let categories): granted.subtract(categories)
        case .set(let categories): granted = categories
        }
    }
}
