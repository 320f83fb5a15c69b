extension ProviderProfile {
    /// How a provider takes values of object types: objects, and lists of objects.
    /// The generator reports a spec that breaks these rules at the parameter; the
    /// runtime flattens or drops what breaks them, each change reported as a
    /// `ProfileViolation`.
    package struct ObjectRules: Sendable, Hashable {
        /// Whether a parameter may be an object (outside a list).
        package var acceptsObjects: Bool
        /// The deepest nesting of objects, a parameter's object being level one; `nil`
        /// where the provider documents none.
        package var maximumDepth: Int?
        /// The most keys one object may have.
        package var maximumKeysPerObject: Int?
        /// Whether an object in a list may hold objects or lists.
        package var acceptsNestingInLists: Bool
        /// The only parameters, by mapped name, that may be lists of objects; `nil`: any.
        package var objectListParameters: Set<String>?
        /// The most objects one list may hold.
        package var maximumObjectsPerList: Int?
        /// Keys an object in a list may use besides the custom ones, by mapped name.
        package var listItemParameterNames: Set<String>
        /// The most keys an object in a list may have beyond ``listItemParameterNames``.
        package var maximumCustomItemKeys: Int?

        /// Objects of any depth and size, in any parameter: what Segment's and
        /// Amplitude's JSON APIs take within their message limits.
        package static let unlimited = ObjectRules(
            acceptsObjects: true, maximumDepth: nil, maximumKeysPerObject: nil, acceptsNestingInLists: true,
            objectListParameters: nil, maximumObjectsPerList: nil, listItemParameterNames: [], maximumCustomItemKeys: nil
        )

        /// Google Analytics for Firebase takes no object parameters, and a list of
        /// objects only as `items`, the item list of GA4's e-commerce events: at most
        /// 200 items, each with GA4's item parameters and up to 27 custom ones, of
        /// string and number values. Source: Firebase, "Measure ecommerce"
        /// (firebase.google.com/docs/analytics/measure-ecommerce), its limits section:
        /// 27 custom parameters in an item beyond the prescribed ones, 200 items an
        /// event, items past 200 dropped; the prescribed item parameters as GA4's
        /// e-commerce reference lists them.
        package static let firebase = ObjectRules(
            acceptsObjects: false, maximumDepth: 1, maximumKeysPerObject: nil, acceptsNestingInLists: false,
            objectListParameters: ["items"], maximumObjectsPerList: 200,
            listItemParameterNames: [
                "item_id", "item_name", "affiliation", "coupon", "discount", "index", "item_brand",
                "item_category", "item_category2", "item_category3", "item_category4", "item_category5",
                "item_list_id", "item_list_name", "item_variant", "location_id", "price", "quantity",
                "creative_name", "creative_slot", "promotion_id", "promotion_name",
            ],
            maximumCustomItemKeys: 27
        )

        /// Mixpanel: object properties nest at most 3 levels deep with at most 255
        /// keys an object; the objects of a list of objects hold no objects or lists.
        /// Source: Mixpanel, "Data Type"
        /// (docs.mixpanel.com/docs/data-structure/property-reference/data-type): object
        /// properties nest 3 levels at most with 255 keys a nested object; a list of
        /// objects holds objects of at most 255 keys, without nesting.
        package static let mixpanel = ObjectRules(
            acceptsObjects: true, maximumDepth: 3, maximumKeysPerObject: 255, acceptsNestingInLists: false,
            objectListParameters: nil, maximumObjectsPerList: nil, listItemParameterNames: [], maximumCustomItemKeys: nil
        )

        /// The name of the parameter a field of an object is sent as where the provider
        /// takes no objects (``acceptsObjects`` is `false`): the parameter's and the
        /// properties' mapped names joined with `_`, at any depth
        /// (`shipping_address_geo_lat`). Such a name can be another parameter's, or
        /// another field's; the generator reports that at the parameter, and the
        /// runtime sends the event's own parameter (or the field flattened first, by
        /// name) and reports the other as a `ProfileViolation`.
        /// - Parameter path: The parameter's mapped name, then each property's.
        /// - Returns: The flattened name.
        package static func flattenedName(of path: [String]) -> String {
            path.joined(separator: "_")
        }
    }
}
