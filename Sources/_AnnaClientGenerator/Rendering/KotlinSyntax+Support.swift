import _AnnaGeneratorCore

extension KotlinSyntax {
    /// The client interface and the options, nested in the generated class so that
    /// files of several specs share a package.
    static let nestedTypes = #"""

    /**
     * What the generated code sends through: the app's own analytics client.
     * analytics-kotlin's `Analytics` satisfies it through a few lines that turn
     * the maps into `JsonObject`s (see the README).
     */
    interface AnnaClient {
        fun track(name: String, properties: Map<String, Any?>)
        fun identify(userId: String?, traits: Map<String, Any?>)
        fun screen(name: String, properties: Map<String, Any?>)
        fun group(groupId: String, traits: Map<String, Any?>)
    }

    /**
     * A value that breaks the plan's rules, reported in development.
     * @property call The event, screen or call (`identify`, `group`, `globals`).
     * @property property The property's key, with the keys of the objects around it: `items/quantity`.
     * @property rule `min`, `max`, `minLength`, `maxLength`, `pattern` or `pii`.
     */
    data class AnnaViolation(val call: String, val property: String, val rule: String, val message: String)

    /**
     * How the generated client behaves. Every option is off by default.
     * @property onViolation Called for each value that breaks a `min`, `max`, length or
     *   `pattern` rule, and for each PII value left out. Set it in development only: when
     *   it is not set, nothing is checked.
     * @property sendPII Send the properties the plan marks `pii`; by default they are left out.
     * @property isConsented Whether the user granted a consent category; everything is sent when not set.
     */
    class AnnaOptions(
        val onViolation: ((AnnaViolation) -> Unit)? = null,
        val sendPII: Boolean = false,
        val isConsented: ((String) -> Boolean)? = null
    )


"""#

    /// ``nestedTypes`` for a versioned plan: `track` and `screen` take the call's context,
    /// `{"plan": {...}}`, for the app's client to merge into the event's `context`, and
    /// the options take the app's `planBranch`.
    static let versionedNestedTypes: String = {
        let client = """
                fun track(name: String, properties: Map<String, Any?>)
                fun identify(userId: String?, traits: Map<String, Any?>)
                fun screen(name: String, properties: Map<String, Any?>)
        """
        let versionedClient = """
                fun track(name: String, properties: Map<String, Any?>, context: Map<String, Any?>)
                fun identify(userId: String?, traits: Map<String, Any?>)
                fun screen(name: String, properties: Map<String, Any?>, context: Map<String, Any?>)
        """
        let doc = "     * the maps into `JsonObject`s (see the README).\n"
        let versionedDoc = """
             * the maps into `JsonObject`s (see the README). The plan is versioned: `track` and
             * `screen` take the call's context, `{"plan": {"name", "version", "eventVersion",
             * "branch"}}`, for the client to merge into the event's `context` (analytics-kotlin:
             * `track(name, properties) { it?.context = merged }`), so the event carries Segment's
             * `context.plan`, as Anna's Swift providers send it.

        """
        let options = """
             * @property isConsented Whether the user granted a consent category; everything is sent when not set.
             */
            class AnnaOptions(
                val onViolation: ((AnnaViolation) -> Unit)? = null,
                val sendPII: Boolean = false,
                val isConsented: ((String) -> Boolean)? = null
            )
        """
        let versionedOptions = """
             * @property isConsented Whether the user granted a consent category; everything is sent when not set.
             * @property planBranch The app's branch of the plan (`main`, a feature branch), sent as
             *   `context.plan.branch`; left out when not set.
             */
            class AnnaOptions(
                val onViolation: ((AnnaViolation) -> Unit)? = null,
                val sendPII: Boolean = false,
                val isConsented: ((String) -> Boolean)? = null,
                val planBranch: String? = null
            )
        """
        precondition(nestedTypes.contains(client) && nestedTypes.contains(doc) && nestedTypes.contains(options))
        return nestedTypes.replacing(client, with: versionedClient).replacing(doc, with: versionedDoc)
            .replacing(options, with: versionedOptions)
    }()

    /// The checking context, when some call checks or leaves out a value.
    static let contextType = """
    private class AnnaContext(val call: String, val report: ((AnnaViolation) -> Unit)?, val sendPII: Boolean)

"""

    /// The send of an event or a screen of a versioned plan: with the globals set, and
    /// the call's context, whose `plan` names the plan and the event's version.
    func versionedSend(_ plan: ClientModel.Plan) -> String {
        """

            private fun anna_send(isTrack: Boolean, name: String, consent: String, properties: Map<String, Any?>, eventVersion: String) {
                if (anna_options.isConsented?.invoke(consent) == false) return
                val anna_payload = LinkedHashMap<String, Any?>(anna_globals)
                anna_payload.putAll(properties)
                val anna_plan = LinkedHashMap<String, Any?>()
                anna_plan.put("name", \(string(plan.name)))
                anna_plan.put("version", \(string(plan.version)))
                anna_plan.put("eventVersion", eventVersion)
                if (anna_options.planBranch != null) anna_plan.put("branch", anna_options.planBranch)
                val anna_callContext = mapOf<String, Any?>("plan" to anna_plan)
                if (isTrack) anna_client.track(name, anna_payload, anna_callContext) else anna_client.screen(name, anna_payload, anna_callContext)
            }

        """
    }

    /// The class's private helpers, each written only when some call uses it, in
    /// this order; the class's `}` follows them.
    static let helpers: [(ClientModel.Helper, String)] = [
        // The class's method making a checking context.
        (.context, #"""

    private fun anna_context(call: String): AnnaContext = AnnaContext(call, anna_options.onViolation, anna_options.sendPII)

"""#),
        // The send of an event or a screen, with the globals set.
        (.send, #"""

    private fun anna_send(isTrack: Boolean, name: String, consent: String, properties: Map<String, Any?>) {
        if (anna_options.isConsented?.invoke(consent) == false) return
        val anna_payload = LinkedHashMap<String, Any?>(anna_globals)
        anna_payload.putAll(properties)
        if (isTrack) anna_client.track(name, anna_payload) else anna_client.screen(name, anna_payload)
    }

"""#),
        // The report of a violation.
        (.report, #"""

    private fun anna_report(context: AnnaContext, property: String, rule: String, message: String) {
        context.report?.invoke(AnnaViolation(context.call, property, rule, message))
    }

"""#),
        // The range checks.
        (.numberCheck, #"""

    private fun anna_long(context: AnnaContext, property: String, value: Long, min: Double?, max: Double?): Long {
        if (context.report != null) anna_range(context, property, value.toDouble(), min, max)
        return value
    }

    private fun anna_double(context: AnnaContext, property: String, value: Double, min: Double?, max: Double?): Double {
        if (context.report != null) anna_range(context, property, value, min, max)
        return value
    }

    private fun anna_range(context: AnnaContext, property: String, value: Double, min: Double?, max: Double?) {
        if (min != null && !(value >= min)) anna_report(context, property, "min", "$value is below the minimum $min")
        if (max != null && !(value <= max)) anna_report(context, property, "max", "$value is above the maximum $max")
    }

"""#),
        // The length and pattern checks.
        (.textCheck, #"""

    private fun anna_text(context: AnnaContext, property: String, value: String, minLength: Int?, maxLength: Int?, pattern: String?): String {
        if (context.report == null) return value
        val length = value.codePointCount(0, value.length)
        if (minLength != null && length < minLength) anna_report(context, property, "minLength", "$length characters, fewer than $minLength")
        if (maxLength != null && length > maxLength) anna_report(context, property, "maxLength", "$length characters, more than $maxLength")
        if (pattern != null) {
            // Anna's patterns have no nested quantifiers (its lint rejects them), so the engine's backtracking stays fast.
            val compiled = anna_patterns.getOrPut(pattern) { try { Regex(pattern) } catch (error: Exception) { null } }
            if (compiled == null) anna_report(context, property, "pattern", "the pattern $pattern is not supported by this engine")
            else if (!compiled.containsMatchIn(value)) anna_report(context, property, "pattern", "does not match $pattern")
        }
        return value
    }

    private val anna_patterns = java.util.concurrent.ConcurrentHashMap<String, Regex?>()

"""#),
        // The PII report.
        (.leftOut, #"""

    private fun anna_leftOut(context: AnnaContext, property: String) {
        anna_report(context, property, "pii", "left out: the plan marks it pii (set sendPII to send it)")
    }

"""#),
        // A date as ISO 8601.
        (.iso8601, #"""

    /** ISO 8601 in UTC with milliseconds, as Anna's Swift runtime sends a date. */
    private fun anna_iso8601(instant: java.time.Instant): String = anna_dateFormat.format(instant)

    private val anna_dateFormat = java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
        .withZone(java.time.ZoneOffset.UTC)

"""#),
        // A UUID in uppercase.
        (.uppercasedUUID, #"""

    /** A UUID in uppercase, as Foundation's `uuidString`. */
    private fun anna_uppercase(text: String): String =
        text.replace('a', 'A').replace('b', 'B').replace('c', 'C').replace('d', 'D').replace('e', 'E').replace('f', 'F')

"""#)
    ]
}
