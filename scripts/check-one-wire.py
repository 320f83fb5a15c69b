#!/usr/bin/env python3
"""One plan, one wire: Swift, Node and a JVM program make the same calls through the code
`anna generate` writes for the Shop example's spec, each posting to its own `anna inspect`.

- Swift: `swift run --package-path Examples/Shop Shop --wire-calls URL` (WireCalls.swift), the
  generated factories through an AnalyticsService and a DurableProvider.
- Node: the generated TypeScript with scripts/one-wire/wire-calls.ts, a minimal client of
  Segment's HTTP Tracking API on Node's fetch, compiled with `tsc --strict`.
- JVM: the generated Kotlin with scripts/one-wire/WireCalls.kt, the same client on
  HttpURLConnection, compiled with kotlinc and run with java.

It fails (exit 1) when an inspector reports any finding or refused request, or when the sides
differ in a call's type, event or screen name, properties (traits for identify), or the plan it
names (`context.plan`: the spec's `version:`, the event's, and the branch each side sets): compared as
JSON with keys sorted, a number by its value (Swift writes the double 5 as 5.0, JavaScript as 5),
and TypeScript's `page` as the `screen` it stands for. Ids and timestamps are left aside.

- Bridge: a page in the app's web view, then the app (issue 55). Node runs the same calls
  through the generated TypeScript's web-view client (`wire-calls.js --webview-messages FILE`,
  a stand-in for WebKit's message handler writing each message as a line); the Shop example
  (`--wire-calls URL --bridge-messages FILE`) feeds each line to a WebContentBridge of its
  AnalyticsService, then makes the calls through the Swift factories, one DurableProvider
  delivering both. The page's half and the app's half must each equal the reference, and every
  call must carry the same anonymousId and context.sessionId: one identity, one session.

It runs twice: with the names as the spec writes them, and in snake_case (`anna generate
--naming snake_case`, the Swift provider with SnakeCaseEventMapper, `anna inspect --naming
snake_case`).

Usage (from the repository, after `swift build --traits Inspector` and the Shop example's build):
    python3 scripts/check-one-wire.py [--bin .build/debug] [--shop PATH-TO-A-BUILT-SHOP] [--sides Swift,Node,JVM,Bridge]
"""
import argparse
import difflib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import urllib.request

SPEC = "Examples/Shop/Sources/ShopAnalytics/shop.anna.yml"
HERE = os.path.dirname(os.path.abspath(__file__))
# The names as written, and as SnakeCaseEventMapper maps them: `anna generate --naming`,
# `anna inspect --naming` and the Shop example's flag for its provider's mapper.
NAMINGS = {"spec": [], "snake_case": ["--snake-case"]}


def run(command, **options):
    print("$ " + " ".join(command), flush=True)
    try:
        subprocess.run(command, check=True, **options)
    except subprocess.CalledProcessError as error:
        raise SystemExit("one wire: FAILED: %s exited with %d" % (" ".join(command), error.returncode))
    except subprocess.TimeoutExpired:
        raise SystemExit("one wire: FAILED: %s did not finish in %d s" % (" ".join(command), options["timeout"]))


def build_node(anna, work, naming):
    folder = os.path.join(work, "node-" + naming)
    run([anna, "generate", SPEC, "--language", "typescript", "--naming", naming, "--output", folder])
    shutil.copy(os.path.join(HERE, "one-wire", "wire-calls.ts"), folder)
    run(["tsc", "--strict", "--target", "es2020", "--module", "commonjs", "--lib", "es2020",
         "--outDir", os.path.join(folder, "out"),
         os.path.join(folder, "shop.anna.ts"), os.path.join(folder, "wire-calls.ts")])
    return ["node", os.path.join(folder, "out", "wire-calls.js"), "{endpoint}"]


def build_jvm(anna, work):
    """Both namings in one jar, one kotlinc call (it is slow): packages wire and wire.snake."""
    folder = os.path.join(work, "jvm")
    os.makedirs(folder)
    with open(os.path.join(HERE, "one-wire", "WireCalls.kt")) as file:
        calls = file.read()
    sources, commands = [], {}
    jar = os.path.join(folder, "wire.jar")
    for naming, suffix in (("spec", ""), ("snake_case", ".snake")):
        output = os.path.join(folder, naming)
        run([anna, "generate", SPEC, "--language", "kotlin", "--naming", naming,
             "--kotlin-package", "com.example.shop" + suffix, "--output", output])
        program = os.path.join(output, "WireCalls.kt")
        with open(program, "w") as file:
            file.write(calls.replace("package wire\n", "package wire%s\n" % suffix)
                       .replace("import com.example.shop.", "import com.example.shop%s." % suffix))
        sources += [os.path.join(output, "shop.anna.kt"), program]
        commands[naming] = ["java", "-cp", jar, "wire%s.WireCallsKt" % suffix, "{endpoint}"]
    # kotlinc's script gives the JVM 256 MB unless JAVA_OPTS says otherwise.
    run(["kotlinc", "-nowarn"] + sources + ["-include-runtime", "-d", jar], env=dict(os.environ, JAVA_OPTS="-Xmx1g"))
    return commands


def get(port, path):
    # A plain request names 127.0.0.1:PORT in its Host header and sends no Origin: the API answers it.
    with urllib.request.urlopen("http://127.0.0.1:%d%s" % (port, path), timeout=10) as response:
        return json.load(response)


def inspect_side(inspect, name, command, work, naming="spec"):
    """Runs one side against a fresh inspector; returns (calls, problems)."""
    report_path = os.path.join(work, name + "-" + naming + "-report.json")
    name = "%s (%s)" % (name, naming)
    inspector = subprocess.Popen([inspect, SPEC, "--port", "0", "--naming", naming, "--report-json", report_path],
                                 stdout=subprocess.PIPE, text=True)
    problems = []
    try:
        line = inspector.stdout.readline().strip()
        prefix = "anna-inspect: listening on http://127.0.0.1:"
        if not line.startswith(prefix):
            raise SystemExit("%s: anna-inspect did not start: %r" % (name, line))
        port = int(line[len(prefix):])
        endpoint = "http://127.0.0.1:%d/v1/batch" % port
        run([endpoint if part == "{endpoint}" else part for part in command], timeout=1800)
        state = get(port, "/api/state")
        calls = [get(port, "/api/calls/%d" % call["id"]) for call in sorted(state["calls"], key=lambda c: c["id"])]
    finally:
        inspector.send_signal(signal.SIGINT)
        status = inspector.wait(timeout=60)
    with open(report_path) as file:
        report = json.load(file)
    totals = report["totals"]
    for key in ("rejectedRequests", "invalidCalls", "callsWithWarnings", "errors", "warnings", "callsNotKept", "findingsNotKept"):
        if totals[key] != 0:
            problems.append("%s: the inspector counted %s = %d" % (name, key, totals[key]))
    for finding in report["findings"]:
        problems.append("%s: %s %s at %s: %s (%s:%s)" % (name, finding["severity"], finding["rule"], finding["path"],
                                                         finding["message"], finding["file"], finding["line"]))
    if status != 0 or not report["passed"]:
        problems.append("%s: anna-inspect exited with %d, passed %s" % (name, status, report["passed"]))
    if totals["calls"] == 0 or totals["calls"] != len(calls):
        problems.append("%s: the inspector counted %d calls and kept %d" % (name, totals["calls"], len(calls)))
    return calls, problems


def webview_messages(node_command, work, naming):
    """The messages the web-view client posts for the calls, one a line, in a file."""
    path = os.path.join(work, "webview-%s.jsonl" % naming)
    run(["node", node_command[1], "--webview-messages", path])
    return path


def one_identity(calls, name):
    """Problems unless every call names the same anonymousId and session."""
    bodies = [json.loads(call["json"]) for call in calls]
    ids = {body.get("anonymousId") for body in bodies}
    sessions = {body.get("context", {}).get("sessionId") for body in bodies}
    problems = []
    if len(ids) != 1 or None in ids:
        problems.append("%s: the page's and the app's calls name %d anonymousIds: %s" % (name, len(ids), sorted(map(str, ids))))
    if len(sessions) != 1 or None in sessions:
        problems.append("%s: the page's and the app's calls name %d sessions: %s" % (name, len(sessions), sorted(map(str, sessions))))
    return problems


def normalized(value):
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {key: normalized(item) for key, item in value.items()}
    if isinstance(value, list):
        return [normalized(item) for item in value]
    return value


def wire_line(call):
    body = json.loads(call["json"])
    kind = body.get("type", "")
    shown = {
        "type": "screen" if kind == "page" else kind,
        "name": body.get("event", body.get("name")),
        "properties": normalized(body.get("traits" if kind == "identify" else "properties", {})),
    }
    plan = body.get("context", {}).get("plan")
    if plan is not None:
        shown["plan"] = plan
    elif kind in ("track", "page", "screen"):
        shown["plan"] = "missing: the spec is versioned, every event and screen names its plan"
    return json.dumps(shown, sort_keys=True, separators=(",", ":"))


def main():
    parser = argparse.ArgumentParser(description="Swift, Node and JVM clients of one spec send the same wire.")
    parser.add_argument("--bin", default=".build/debug", help="the folder with anna and anna-inspect")
    parser.add_argument("--shop", help="a built Shop executable to run instead of `swift run --package-path Examples/Shop Shop`")
    parser.add_argument("--sides", default="Swift,Node,JVM,Bridge", help="the sides to run, the first one the reference")
    arguments = parser.parse_args()
    anna = os.path.join(arguments.bin, "anna")
    inspect = os.path.join(arguments.bin, "anna-inspect")
    work = tempfile.mkdtemp(prefix="anna-one-wire-")
    try:
        wanted = arguments.sides.split(",")
        if len(wanted) < 2 or any(name not in ("Swift", "Node", "JVM", "Bridge") for name in wanted):
            parser.error("--sides: two or more of Swift, Node, JVM and Bridge, comma-separated")
        if "Bridge" in wanted and wanted[0] == "Bridge":
            parser.error("--sides: Bridge cannot be the reference; put Swift, Node or JVM first")
        shop = [arguments.shop] if arguments.shop else ["swift", "run", "--package-path", "Examples/Shop", "Shop"]
        commands = {naming: {} for naming in NAMINGS}
        for naming, flags in NAMINGS.items():
            commands[naming]["Swift"] = shop + ["--wire-calls", "{endpoint}"] + flags
            if "Node" in wanted or "Bridge" in wanted:
                node = build_node(anna, work, naming)
                commands[naming]["Node"] = node
                if "Bridge" in wanted:
                    commands[naming]["Bridge"] = (shop + ["--wire-calls", "{endpoint}", "--bridge-messages",
                                                          webview_messages(node, work, naming)] + flags)
        if "JVM" in wanted:
            for naming, command in build_jvm(anna, work).items():
                commands[naming]["JVM"] = command
        problems, count, names, planned = [], 0, set(), 0
        for naming in NAMINGS:
            lines = {}
            sides = []
            for name in wanted:
                calls, found = inspect_side(inspect, name, commands[naming][name], work, naming)
                problems += found
                if name != "Bridge":
                    lines[name] = [wire_line(call) for call in calls]
                    sides.append(name)
                    continue
                # The page's calls came first, then the app's: each half is the calls once.
                half = len(calls) // 2
                lines["Bridge (page)"] = [wire_line(call) for call in calls[:half]]
                lines["Bridge (app)"] = [wire_line(call) for call in calls[half:]]
                sides += ["Bridge (page)", "Bridge (app)"]
                problems += one_identity(calls, "Bridge (%s)" % naming)
            reference = sides[0]
            for name in sides[1:]:
                if lines[name] != lines[reference]:
                    diff = difflib.unified_diff(lines[reference], lines[name], reference, name, lineterm="", n=1)
                    problems.append("%s and %s sent different calls with the names %s:\n%s"
                                    % (reference, name, naming, "\n".join(diff)))
            count += len(lines[reference])
            planned += sum(1 for line in lines[reference] if isinstance(json.loads(line).get("plan"), dict))
            names |= {json.loads(line)["name"] or json.loads(line)["type"] for line in lines[reference]}
        if problems:
            print("\n".join(["one wire: FAILED"] + problems))
            return 1
        print("one wire: %s sent the same %d calls, names as in the spec and in snake_case (%s), %d of them naming "
              "the same context.plan, to anna inspect, with no finding%s" % (
                  ", ".join(wanted), count, ", ".join(sorted(names)), planned,
                  "; the page's calls through the web-content bridge and the app's with one anonymousId and session"
                  if "Bridge" in wanted else ""))
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
