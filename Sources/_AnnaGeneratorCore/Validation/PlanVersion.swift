/// The version of a plan (`version:` at the top of a spec) or of one event (`version:`
/// under it): `MAJOR.MINOR.PATCH`, read as Snowplow's SchemaVer
/// `MODEL-REVISION-ADDITION` for what it means to data already collected:
/// - MAJOR (MODEL): a change no earlier row fits, such as a removed or retyped property
///   or a new required one;
/// - MINOR (REVISION): a change some earlier rows may not fit, such as a tighter
///   constraint or a removed enum case;
/// - PATCH (ADDITION): a change every earlier row fits, such as an added optional
///   property or a new event.
package struct PlanVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// How much a change moves a version, from none to a major bump.
    package enum Bump: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
        /// No version change needed: descriptions, docs.
        case none
        /// PATCH (ADDITION).
        case patch
        /// MINOR (REVISION).
        case minor
        /// MAJOR (MODEL).
        case major

        package static func < (lhs: Bump, rhs: Bump) -> Bool { lhs.rawValue < rhs.rawValue }

        package var description: String {
            switch self {
            case .none: "no change"
            case .patch: "a patch change"
            case .minor: "a minor change"
            case .major: "a breaking change"
            }
        }
    }

    package var major: Int
    package var minor: Int
    package var patch: Int

    /// The version an event has when it declares none, and a plan's first.
    package static let initial = PlanVersion(major: 1, minor: 0, patch: 0)

    package init(major: Int, minor: Int, patch: Int) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    /// Reads `2.3.0`: three non-negative decimal numbers without leading zeros
    /// (a lone `0` aside), separated by dots; `nil` for anything else.
    package init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var numbers: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 9, part.allSatisfy(\.isASCIIDigit),
                part == "0" || part.first != "0", let number = Int(part)
            else { return nil }
            numbers.append(number)
        }
        self.init(major: numbers[0], minor: numbers[1], patch: numbers[2])
    }

    /// `2.3.0`.
    package var description: String { "\(major).\(minor).\(patch)" }

    /// `2-3-0`: SchemaVer, as Iglu's URIs and `self` blocks write it.
    package var schemaVer: String { "\(major)-\(minor)-\(patch)" }

    /// The smallest version after `self` that makes a change of size `bump`:
    /// `2.3.1` bumped by `.minor` is `2.4.0`.
    package func bumped(_ bump: Bump) -> PlanVersion {
        switch bump {
        case .none: self
        case .patch: PlanVersion(major: major, minor: minor, patch: patch + 1)
        case .minor: PlanVersion(major: major, minor: minor + 1, patch: 0)
        case .major: PlanVersion(major: major + 1, minor: 0, patch: 0)
        }
    }

    /// Whether `self`, as the version after `base`, allows a change of size `bump`.
    package func allows(_ bump: Bump, after base: PlanVersion) -> Bool {
        self >= base.bumped(bump)
    }

    package static func < (lhs: PlanVersion, rhs: PlanVersion) -> Bool {
        (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isWholeNumber }
}

extension TrackingSpec {
    /// The plan's name on the wire and in the inspector: `namespace:`, else the spec's
    /// file name without `.anna.yml`.
    package var planName: String { namespace ?? baseName }
}
