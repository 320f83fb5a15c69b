#!/usr/bin/env python3
"""Checks that the folders of a target depend one way (issue 22): a file may use the
types of its own folder and of the folders below it in LAYERS, never of one above.
A type belongs to the folder of the file that declares it at top level; a file uses a
type when its name appears outside comments and string literals. An extension of a
type declared above is a use too, so a folder cannot add to one above it.

Usage: scripts/check-layers.py [--graph]
Prints each crossing as `file:line: error: Folder uses Type (Other/), which is above it`
and exits 1 when there is one; --graph prints which folder uses which."""
import collections, os, re, sys

# Lowest first. Each folder may use those before it in its list, never those after.
LAYERS = {
    "Sources/Anna": [
        "Support",     # locks, files, hashing, clocks: no analytics concept
        "Events",      # what is reported: values, events, envelopes and their context, drop reasons
        "Identity",    # who: the stored identity, consent, their stores
        "Lifecycle",   # when: app lifecycle events and the rules they trigger
        "Providers",   # the provider contract and its rules (profiles, naming, PII), simple providers
        "Queue",       # the durable queue: segments on disk, records, the storage lock, a folder shared with extensions
        "Upload",      # uploads: the upload state machine, collectors' wires, the HTTP batch provider: a provider, unaware of the service
        "Service",     # AnalyticsService: intake, pipeline, identity persistence, lanes fanning out to providers
    ],
    # A module on top of Anna, which the compiler keeps from seeing it; inside, one way too.
    "Sources/AnnaFocusPaths": [
        "FocusPath",   # Manager, Node, Analyzer: the responder-chain paths, reporting through the service
        "Capture",     # automatic capture rules over focus paths
        "LiveTasks",   # task descriptions, loading and reloading tasks into a Manager
    ],
    "Sources/_AnnaGeneratorCore": [
        "Diagnostics",
        "PluginsShared",
        "Parsing",
        "Validation",
        "Translation",
        "Rendering",
    ],
    # TypeScript and Kotlin on top of the pipeline (a module of its own, which the
    # build plugin's tool never compiles): the client model, then its printers.
    "Sources/_AnnaClientGenerator": [
        "Translation",
        "Rendering",
    ],
    # anna inspect without its server: each folder uses only those before it.
    "Sources/_AnnaInspector": [
        "JSON",        # the JSON value and its strict, bounded reader
        "Plan",        # the plan indexed from validated specs
        "Checking",    # findings and the call checker
        "Log",         # call records, limits and the bounded log
        "Requests",    # gzip, and the inspector that takes requests
        "Reports",     # JSON, JUnit and GitHub annotations
        "Page",        # the live page and the JSON it reads
    ],
    # On top of the pipeline (a module of its own, which the build plugin's tool never compiles).
    "Sources/_AnnaGovernance": [
        "Templates",
        "Governance",
        "Import",
        "Export",      # anna export: Segment's rules and Iglu schemas, which anna import reads back
    ],
}

DECLARATION = re.compile(r"^(?:@[\w()., ]+\s+)*(?:(?:public|package|internal|fileprivate|private|open|final|indirect|nonisolated)\s+)*(?:class|struct|enum|protocol|actor|typealias)\s+([A-Za-z_]\w*)", re.M)
IDENTIFIER = re.compile(r"\b[A-Z][A-Za-z0-9_]*\b")

def strip(source):
    """Source without comments and string literals, with its lines kept."""
    out, i, n = [], 0, len(source)
    while i < n:
        if source.startswith("//", i):
            j = source.find("\n", i); j = n if j < 0 else j
            i = j
        elif source.startswith("/*", i):
            j = source.find("*/", i + 2); j = n if j < 0 else j + 2
            out.append("\n" * source.count("\n", i, j)); i = j
        elif source.startswith('"""', i):
            j = source.find('"""', i + 3); j = n if j < 0 else j + 3
            out.append("\n" * source.count("\n", i, j)); i = j
        elif source[i] == '"':
            j = i + 1
            while j < n and source[j] not in '"\n':
                j += 2 if source[j] == "\\" else 1
            i = j + 1
        else:
            out.append(source[i]); i += 1
    return "".join(out)

def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    crossings, graph = [], collections.defaultdict(collections.Counter)
    for target, layers in LAYERS.items():
        files = {}
        for folder in os.listdir(os.path.join(root, target)):
            path = os.path.join(root, target, folder)
            if not os.path.isdir(path) or folder.endswith(".docc"):
                continue
            if folder not in layers:
                crossings.append(f"{target}/{folder}: error: a folder the layer check does not know; add it to LAYERS in scripts/check-layers.py")
                continue
            for directory, _, names in os.walk(path):
                for name in names:
                    if name.endswith(".swift"):
                        file = os.path.join(directory, name)
                        files[file] = (folder, strip(open(file, encoding="utf-8").read()))
        owner = {}
        for file, (folder, text) in files.items():
            for match in DECLARATION.finditer(text):
                owner.setdefault(match.group(1), folder)
        for file, (folder, text) in sorted(files.items()):
            rank = layers.index(folder)
            for number, line in enumerate(text.split("\n"), 1):
                for name in set(IDENTIFIER.findall(line)):
                    other = owner.get(name)
                    if other is None or other == folder:
                        continue
                    graph[f"{target}/{folder}"][other] += 1
                    if layers.index(other) > rank:
                        crossings.append(f"{os.path.relpath(file, root)}:{number}: error: {folder} uses {name} ({other}/), which is above it; "
                                         f"move the type down or the use up ({' <- '.join(layers)})")
    if "--graph" in sys.argv:
        for folder, uses in sorted(graph.items()):
            print(f"{folder} uses " + ", ".join(f"{other} ({count})" for other, count in uses.most_common()))
    for crossing in crossings:
        print(crossing)
    if crossings:
        print(f"{len(crossings)} uses cross the folders' order", file=sys.stderr)
        return 1
    print("folders depend one way: " + "; ".join(f"{t}: {' <- '.join(l)}" for t, l in LAYERS.items()))
    return 0

if __name__ == "__main__":
    sys.exit(main())
