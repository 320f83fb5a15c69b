#!/usr/bin/env python3
"""Counts what `import Anna` exposes: public and open types and declarations of the
Anna module and of the AnnaRules types it re-exports (`@_exported import struct
AnnaRules.X` in Sources/Anna/Exports.swift), read from their symbol graphs
(swift-symbolgraph-extract over the debug build). Not counted, as issue 22 defines it:
`@_spi` declarations (the extractor leaves them out), `package` and internal ones,
deprecated ones (a renamed name kept for a release, as APIStability.md promises), and
members the compiler synthesizes or a type inherits from a protocol of the standard
library. Counted: types (struct, class, enum, protocol, typealias, actor), and every
declaration (types, their members, enum cases, free functions and variables, members
of public extensions and of public protocols).

Usage: scripts/count-public-api.py [--list] [--max-types N --max-declarations N] [--modules A,B]
`--modules AnnaFocusPaths` counts what the focus-path module adds: its own declarations
and the AnnaRules types it re-exports, not Anna's (which it re-exports whole).
Run after a debug build (`swift build`, or `swift test`). Prints the counts per module
and, with --list, every counted declaration. With the limits, exits 1 above them."""
import argparse, collections, glob, json, os, re, subprocess, sys, tempfile

TYPE_KINDS = {"swift.struct", "swift.class", "swift.enum", "swift.protocol", "swift.typealias", "swift.actor", "swift.associatedtype"}

def run(*args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout.strip()

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--max-types", type=int)
    parser.add_argument("--max-declarations", type=int)
    parser.add_argument("--modules", default="Anna")
    options = parser.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    os.chdir(root)
    bin_path = run("swift", "build", "--show-bin-path")
    modules = os.path.join(bin_path, "Modules")
    if not os.path.isdir(modules):
        modules = bin_path
    toolchain = os.path.dirname(run("sh", "-c", "command -v swift"))
    extract = os.environ.get("SWIFT_SYMBOLGRAPH_EXTRACT", os.path.join(toolchain, "swift-symbolgraph-extract"))
    triple = json.loads(run("swift", "-print-target-info"))["target"]["triple"]
    includes = []
    for module_map in glob.glob("Sources/*/include/module.modulemap") + glob.glob(os.path.join(bin_path, "*.build", "module.modulemap")):
        includes += ["-I", os.path.dirname(module_map)]
    # module -> the type names counted of it (None: all); a module's scoped re-exports
    # (`@_exported import struct Other.Name`) add those types of the other module.
    counted = {}
    for module in options.modules.split(","):
        counted[module] = None
        exports = os.path.join("Sources", module, "Exports.swift")
        if os.path.exists(exports):
            for other, name in re.findall(r"^@_exported import (?:struct|enum|class|protocol|typealias) (\w+)\.(\w+)", open(exports).read(), re.M):
                if counted.get(other, set()) is not None:
                    counted.setdefault(other, set()).add(name)
    total_types = total_declarations = 0
    with tempfile.TemporaryDirectory() as output:
        for module, names in counted.items():
            subprocess.run([extract, "-module-name", module, "-target", triple, "-I", modules, *includes,
                            "-minimum-access-level", "public", "-skip-synthesized-members", "-skip-inherited-docs",
                            "-output-dir", output], check=True)
            graph = json.load(open(os.path.join(output, f"{module}.symbols.json")))
            symbols = [s for s in graph["symbols"]
                       if s["accessLevel"] in ("public", "open")
                       # members inherited from a standard-library protocol (default implementations)
                       and not s["identifier"]["precise"].startswith("s:s")
                       and "::SYNTHESIZED::" not in s["identifier"]["precise"]
                       # a renamed name kept, deprecated, for a release (APIStability.md): not API to learn
                       and not any(entry.get("isUnconditionallyDeprecated") for entry in s.get("availability", []))
                       and (names is None or s["pathComponents"][0] in names)]
            types = [s for s in symbols if s["kind"]["identifier"] in TYPE_KINDS]
            kinds = collections.Counter(s["kind"]["identifier"].removeprefix("swift.") for s in symbols)
            scope = "" if names is None else f" ({', '.join(sorted(names))}, re-exported)"
            print(f"{module}{scope}: {len(types)} public types, {len(symbols)} public declarations "
                  f"({', '.join(f'{k} {v}' for k, v in kinds.most_common())})")
            if options.list:
                for s in sorted(symbols, key=lambda s: ".".join(s["pathComponents"])):
                    print(f"  {s['kind']['identifier'].removeprefix('swift.'):14} {'.'.join(s['pathComponents'])}")
            total_types += len(types)
            total_declarations += len(symbols)
    what = "import Anna" if options.modules == "Anna" else " + ".join(options.modules.split(","))
    print(f"{what}: {total_types} public types, {total_declarations} public declarations")
    over = []
    if options.max_types is not None and total_types > options.max_types:
        over.append(f"{total_types} types > {options.max_types}")
    if options.max_declarations is not None and total_declarations > options.max_declarations:
        over.append(f"{total_declarations} declarations > {options.max_declarations}")
    if over:
        print("the public API is over its budget: " + "; ".join(over), file=sys.stderr)
        return 1
    return 0

if __name__ == "__main__":
    sys.exit(main())
