import _AnnaGeneratorCore

extension TypeScriptSyntax {
    /// The client interface, the options and the checks every generated module holds:
    /// a few dozen lines, so a module stands alone and bundles no SDK.
    static let support = #"""

/**
 * What the generated code sends through: the app's own analytics client.
 * Segment's analytics-next (`AnalyticsBrowser`) satisfies it as it is. For
 * analytics-node, wrap it: `{ track: (event, properties) => node.track({ userId, event, properties }), ... }`.
 */
export interface AnnaClient {
  track(event: string, properties: { [key: string]: unknown }): void;
  identify(userId: string | undefined, traits: { [key: string]: unknown }): void;
  page(name: string, properties: { [key: string]: unknown }): void;
  group(groupId: string, traits: { [key: string]: unknown }): void;
}

/** A value that breaks the plan's rules, reported in development. */
export interface AnnaViolation {
  /** The event, screen or call (`identify`, `group`, `globals`). */
  readonly call: string;
  /** The property's key, with the keys of the objects around it: `items/quantity`. */
  readonly property: string;
  readonly rule: "min" | "max" | "minLength" | "maxLength" | "pattern" | "pii";
  readonly message: string;
}

/** How the generated client behaves. Every option is off by default. */
export interface AnnaOptions {
  /**
   * Called for each value that breaks a `min`, `max`, length or `pattern` rule, and
   * for each PII value left out. Set it in development only: when it is not set,
   * nothing is checked.
   */
  readonly onViolation?: (violation: AnnaViolation) => void;
  /** Send the properties the plan marks `pii`; by default they are left out, as Anna's Swift providers do. */
  readonly sendPII?: boolean;
  /** Whether the user granted a consent category (`analytics`, `marketing`…); everything is sent when not set. */
  readonly isConsented?: (category: string) => boolean;
}

"""#

    /// The checking context and its report, when anything is checked or left out.
    static let contextSupport = #"""
interface AnnaContext {
  readonly call: string;
  readonly report: ((violation: AnnaViolation) => void) | undefined;
  readonly sendPII: boolean;
}

"""#

    /// The report of a violation.
    static let reportSupport = #"""
function annaReport(context: AnnaContext, property: string, rule: AnnaViolation["rule"], message: string): void {
  if (context.report !== undefined) context.report({ call: context.call, property: property, rule: rule, message: message });
}

"""#

    /// The range check.
    static let numberSupport = #"""
function annaNumber(context: AnnaContext, property: string, value: number, min: number | undefined, max: number | undefined): number {
  if (context.report === undefined) return value;
  if (min !== undefined && !(value >= min)) annaReport(context, property, "min", value + " is below the minimum " + min);
  if (max !== undefined && !(value <= max)) annaReport(context, property, "max", value + " is above the maximum " + max);
  return value;
}

"""#

    /// The length and pattern checks.
    static let textSupport = #"""
const annaPatterns: { [pattern: string]: RegExp | null } = Object.create(null);

function annaText(
  context: AnnaContext, property: string, value: string,
  minLength: number | undefined, maxLength: number | undefined, pattern: string | undefined
): string {
  if (context.report === undefined) return value;
  // Characters as Unicode scalars, not UTF-16 units.
  const length = value.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, "_").length;
  if (minLength !== undefined && length < minLength) annaReport(context, property, "minLength", length + " characters, fewer than " + minLength);
  if (maxLength !== undefined && length > maxLength) annaReport(context, property, "maxLength", length + " characters, more than " + maxLength);
  if (pattern !== undefined) {
    let compiled = annaPatterns[pattern];
    if (compiled === undefined) {
      // Anna's patterns have no nested quantifiers (its lint rejects them), so the engine's backtracking stays fast.
      const source = pattern.replace(/\\x\{([0-9A-Fa-f]+)\}/g, "\\u{$1}");
      try { compiled = new RegExp(source, "u"); } catch (error) { compiled = null; }
      annaPatterns[pattern] = compiled;
    }
    if (compiled === null) annaReport(context, property, "pattern", "the pattern " + pattern + " is not supported by this engine");
    else if (!compiled.test(value)) annaReport(context, property, "pattern", "does not match " + pattern);
  }
  return value;
}

"""#

    /// The PII report.
    static let leftOutSupport = #"""
function annaLeftOut(context: AnnaContext, property: string): void {
  annaReport(context, property, "pii", "left out: the plan marks it pii (set sendPII to send it)");
}

"""#

    /// The class's method making a checking context.
    static let contextMethod = #"""

  private annaContext(call: string): AnnaContext {
    return { call: call, report: this.options.onViolation, sendPII: this.options.sendPII === true };
  }

"""#
}

extension TypeScriptSyntax {
    /// ``support`` for a versioned plan: `track` and `page` take a third argument,
    /// analytics-next's options, whose `context.plan` names the plan and the event's
    /// version, and the options take the app's `planBranch`.
    static let versionedSupport: String = {
        let client = """
          track(event: string, properties: { [key: string]: unknown }): void;
          identify(userId: string | undefined, traits: { [key: string]: unknown }): void;
          page(name: string, properties: { [key: string]: unknown }): void;
        """
        let versionedClient = """
          track(event: string, properties: { [key: string]: unknown }, options?: AnnaCallOptions): void;
          identify(userId: string | undefined, traits: { [key: string]: unknown }): void;
          page(name: string, properties: { [key: string]: unknown }, options?: AnnaCallOptions): void;
        """
        let doc = " * analytics-node, wrap it: `{ track: (event, properties) => node.track({ userId, event, properties }), ... }`.\n"
        let versionedDoc = """
         * analytics-node, wrap it: `{ track: (event, properties, options) => node.track({ userId, event, properties,
         * context: options?.context }), ... }`. The plan is versioned: every `track` and `page` passes
         * `{ context: { plan } }` (`AnnaCallOptions`), which analytics-next merges into the event's
         * `context`, so the event carries Segment's `context.plan`, as Anna's Swift providers send it.

        """
        let options = "  readonly isConsented?: (category: string) => boolean;\n}\n"
        let versionedOptions = """
          readonly isConsented?: (category: string) => boolean;
          /** The app's branch of the plan (`main`, a feature branch), sent as `context.plan.branch`; left out when not set. */
          readonly planBranch?: string;
        }

        /**
         * The plan an event or a screen was generated from, sent as Segment's `context.plan`:
         * `{ name, version, eventVersion, branch }`, the same object Anna's Swift providers send.
         */
        export interface AnnaPlan {
          /** The spec's `namespace:`, else its file name without `.anna.yml`. */
          readonly name: string;
          /** The plan's `version:`. */
          readonly version: string;
          /** The event's or screen's own `version:`, `1.0.0` when it declares none. */
          readonly eventVersion: string;
          /** `planBranch` from the options, when set. */
          readonly branch?: string;
        }

        /** The third argument of `track` and `page`: analytics-next's options, with the plan in the context. */
        export interface AnnaCallOptions {
          readonly context: { readonly plan: AnnaPlan };
        }

        """
        precondition(support.contains(client) && support.contains(doc) && support.contains(options))
        return support.replacing(client, with: versionedClient).replacing(doc, with: versionedDoc)
            .replacing(options, with: versionedOptions)
    }()

    /// ``sendMethod(globals:)`` for a versioned plan: every call passes the plan's
    /// `context.plan`, with the event's version, the last argument of `annaSend`.
    static func versionedSendMethod(globals: Bool, plan: ClientModel.Plan, string: (String) -> String) -> String {
        """

          private annaSend(kind: "track" | "page", name: string, consent: string, properties: { [key: string]: unknown }, eventVersion: string): void {
            if (this.options.isConsented !== undefined && !this.options.isConsented(consent)) return;
            const payload: { [key: string]: unknown } = {};
        \(globals ? "    for (const key in this.annaGlobals) payload[key] = this.annaGlobals[key];\n" : "")\
            for (const key in properties) payload[key] = properties[key];
            const plan: AnnaPlan = this.options.planBranch === undefined
              ? { name: \(string(plan.name)), version: \(string(plan.version)), eventVersion: eventVersion }
              : { name: \(string(plan.name)), version: \(string(plan.version)), eventVersion: eventVersion, branch: this.options.planBranch };
            if (kind === "track") this.client.track(name, payload, { context: { plan: plan } });
            else this.client.page(name, payload, { context: { plan: plan } });
          }

        """
    }

    /// The class's method sending an event or a screen, with the globals when the plan has some.
    static func sendMethod(globals: Bool) -> String {
        """

          private annaSend(kind: "track" | "page", name: string, consent: string, properties: { [key: string]: unknown }): void {
            if (this.options.isConsented !== undefined && !this.options.isConsented(consent)) return;
            const payload: { [key: string]: unknown } = {};
        \(globals ? "    for (const key in this.annaGlobals) payload[key] = this.annaGlobals[key];\n" : "")\
            for (const key in properties) payload[key] = properties[key];
            if (kind === "track") this.client.track(name, payload);
            else this.client.page(name, payload);
          }

        """
    }
}
