#!/usr/bin/env python3
"""Compile Anna for iOS against a real iPhoneOS SDK, on Linux: the package's library
targets, the documents' iOS Swift blocks, and the reference iOS app in Examples/iOSApp.

Linux CI compiles Apple-only files (`#if canImport(UIKit)`, `os(iOS)`) as empty files, so
their errors stay hidden until an iOS build. This script builds every library product's
targets as Swift modules for an iOS device (arm64, debug) with the Linux toolchain and a
real SDK, in dependency order, in Swift 6 mode, through SILGen and the mandatory
diagnostic passes (`swiftc -wmo -emit-module`), which is where region-based isolation
("sending 'x' risks causing data races") is checked: `-typecheck` alone misses those. It
links nothing and runs nothing. Dependencies of other packages are built with their
function bodies skipped.

Then it compiles, each as an app's own module importing the products, with the Swift
that `anna generate` writes for their spec:
- every Swift block of README.md and Sources/Anna/Anna.docc/*.md marked
  `<!-- compiled: ios -->` (with the README's spec, Tests/AnnaDocumentationTests/catalog.anna.yml);
  a block that imports UIKit, SwiftUI, AnnaUIKit, AnnaSwiftUI or AnnaApple must carry
  that marker or `<!-- fragment: why -->`;
- the reference app, Examples/iOSApp/App (and, with --app-extension, its extension,
  Examples/iOSApp/Extension), with Examples/iOSApp/shop-ios.anna.yml.

Getting an SDK (once per machine): an iOS SDK whose standard library is Swift 6.x (iOS 18 or
later; older ones crash this compiler on Swift 6 code), e.g. iPhoneOS18.6.sdk from the public
repository mrdrvt99/iOS-SDKss (see CONTRIBUTING.md). From a git copy of that repository
(no work tree needed): python3 extract-sdk.py iPhoneOS18.6.sdk ~/.cache/anna-apple GIT_DIR
The SDK is Apple's: never commit it or any file of it.

Usage: check-apple-sdk.py [--package DIR] [--sdk PATH] [--app-extension] [--keep-going]
  --package: the package root (default: the git top level of the current folder)
  --sdk: default $ANNA_IOS_SDK, else ~/.cache/anna-apple/iPhoneOS18.6.sdk
  --app-extension: compile with -application-extension (API unavailable to extensions fails)
  $ANNA_SWIFT_BUILD_FLAGS: flags for the `swift build --product anna` that generates Swift
Prints each diagnostic as path:line:col: error|warning: message (paths relative to the
package), then a last line `apple sdk check: ...`. Exit 0 only with no error and no warning
(the package's own modules; warnings count, as SWIFT_TREAT_WARNINGS_AS_ERRORS would).
Exit 2: no usable SDK, or the package could not be read.
"""
import argparse, functools, json, os, re, shutil, subprocess, sys

ap = argparse.ArgumentParser()
ap.add_argument("--package")
ap.add_argument("--sdk", default=os.environ.get("ANNA_IOS_SDK", os.path.expanduser("~/.cache/anna-apple/iPhoneOS18.6.sdk")))
ap.add_argument("--work", default=os.path.expanduser("~/.cache/anna-apple/work"))
ap.add_argument("--app-extension", action="store_true")
ap.add_argument("--keep-going", action="store_true", help="build dependents of a module that failed")
args = ap.parse_args()

pkg = args.package or subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True).stdout.strip() or os.getcwd()
pkg = os.path.abspath(pkg)
sdk = os.path.abspath(args.sdk)
swift_iface = os.path.join(sdk, "usr/lib/swift/Swift.swiftmodule/arm64-apple-ios.swiftinterface")
if not os.path.exists(swift_iface):
    print(f"no iOS SDK at {sdk}: see the top of {sys.argv[0]} for how to get one (or pass --sdk)")
    print("apple sdk check: no SDK")
    sys.exit(2)
if "_willThrowTyped" not in open(swift_iface, encoding="utf-8", errors="replace").read():
    print(f"{sdk}: its standard library predates Swift 6 (no typed throws); use an iOS 18+ SDK")
    print("apple sdk check: SDK too old")
    sys.exit(2)

def run_json(cmd, cwd):
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if r.returncode != 0:
        print(f"{' '.join(cmd)} failed in {cwd}:\n{r.stderr[-2000:]}")
        print("apple sdk check: cannot read the package")
        sys.exit(2)
    return json.loads(r.stdout)

# --- the toolchain's own pieces, without its Linux module maps ---------------------------
swiftc = shutil.which("swiftc")
toolchain_lib = os.path.realpath(os.path.join(os.path.dirname(os.path.realpath(swiftc)), "..", "lib"))
sdk_name = os.path.basename(sdk).removesuffix(".sdk")
work = os.path.join(os.path.abspath(args.work), sdk_name + ("-appext" if args.app_extension else ""))
res = os.path.join(os.path.abspath(args.work), "resource-dir-" + sdk_name)
os.makedirs(res, exist_ok=True)
clang = sorted(d for d in os.listdir(os.path.join(toolchain_lib, "clang")))[-1]
for name, target in [("clang", os.path.join(toolchain_lib, "clang", clang)),
                     ("host", os.path.join(toolchain_lib, "swift", "host")),
                     ("shims", os.path.join(sdk, "usr/lib/swift/shims"))]:
    link = os.path.join(res, name)
    if os.path.lexists(link): os.remove(link)
    os.symlink(target, link)
# iOS 18 SDKs make the driver pass -fno-modulemap-allow-subdirectory-search: point at shims/.
shim_modules = re.findall(r"^module\s+(\w+)", open(os.path.join(res, "shims", "module.modulemap")).read(), re.M)
with open(os.path.join(res, "module.modulemap"), "w") as f:
    f.writelines(f'extern module {m} "shims/module.modulemap"\n' for m in shim_modules)

# --- the package graph ---------------------------------------------------------------------
root = run_json(["swift", "package", "dump-package"], pkg)
platforms = {p["platformName"]: p["version"] for p in root.get("platforms", [])}
triple = f"arm64-apple-ios{platforms.get('ios', '16.0')}"
subprocess.run(["swift", "package", "resolve"], cwd=pkg, capture_output=True)

def checkout_dir(identity):
    for base in (os.path.join(pkg, ".build", "checkouts"),):
        for d in os.listdir(base) if os.path.isdir(base) else []:
            if d.lower() == identity.lower():
                return os.path.join(base, d)
    return None

manifests = {root["name"].lower(): (pkg, root)}
def manifest(identity):
    if identity not in manifests:
        d = checkout_dir(identity)
        if d is None:
            print(f"dependency {identity} is not checked out under .build/checkouts")
            print("apple sdk check: cannot resolve dependencies")
            sys.exit(2)
        manifests[identity] = (d, run_json(["swift", "package", "dump-package"], d))
    return manifests[identity]

def applies(condition, enabled_traits):
    if not condition: return True
    names = condition.get("platformNames") or []
    if names and "ios" not in names: return False
    traits = condition.get("traits") or []
    if traits and not set(traits) & enabled_traits: return False
    return True

def package_traits(m):
    for t in m.get("traits") or []:
        if t.get("name") == "default": return set(t.get("enabledTraits") or [])
    return set()

modules = {}   # module name -> dict(package, dir, target, deps, own)
def add_target(identity, name, own):
    key = name
    if key in modules: return True
    d, m = manifest(identity)
    t = next((x for x in m["targets"] if x["name"] == name), None)
    if t is None: return False
    if t["type"] in ("system", "binary", "plugin", "test", "executable", "macro"):
        return False
    enabled = package_traits(m)
    deps = []
    for dep in t.get("dependencies", []):
        kind, val = next(iter(dep.items()))
        cond = val[-1] if isinstance(val[-1], dict) else None
        if not applies(cond, enabled): continue
        if kind in ("byName", "target"):
            if not add_target(identity, val[0], own): return False
            deps.append(val[0])
        elif kind == "product":
            prod, dep_pkg = val[0], val[1].lower()
            _, dm = manifest(dep_pkg)
            p = next(x for x in dm["products"] if x["name"] == prod)
            for pt in p["targets"]:
                if not add_target(dep_pkg, pt, False): return False
                deps.append(pt)
    modules[key] = dict(identity=identity, dir=d, target=t, manifest=m, deps=deps, own=own)
    return True

host_only = []
for product in root["products"]:
    if "library" not in product["type"]: continue
    for t in product["targets"]:
        snapshot = dict(modules)
        if not add_target(root["name"].lower(), t, True):
            modules.clear(); modules.update(snapshot); host_only.append(t)

def sources(info):
    t = info["target"]
    base = os.path.join(info["dir"], t.get("path") or ("Sources/" + t["name"]))
    if not os.path.isdir(base):
        base = os.path.join(info["dir"], "Source", t["name"])
    excluded = [os.path.normpath(os.path.join(base, e)) for e in t.get("exclude", [])]
    out = []
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = sorted(x for x in dirnames if os.path.normpath(os.path.join(dirpath, x)) not in excluded)
        for fn in sorted(filenames):
            full = os.path.join(dirpath, fn)
            if any(os.path.normpath(full).startswith(e) for e in excluded): continue
            out.append(full)
    return base, out

def setting_flags(info):
    flags = []
    for s in info["target"].get("settings", []):
        if s.get("tool") != "swift": continue
        if not applies(s.get("condition"), set()): continue
        kind, val = next(iter(s["kind"].items()))
        v = val.get("_0") if isinstance(val, dict) else val
        v = v if isinstance(v, list) else [v]
        if kind == "define": flags += [f"-D{x}" for x in v]
        elif kind == "enableUpcomingFeature": flags += sum((["-enable-upcoming-feature", x] for x in v), [])
        elif kind == "enableExperimentalFeature": flags += sum((["-enable-experimental-feature", x] for x in v), [])
        elif kind == "unsafeFlags": flags += v
        elif kind == "swiftLanguageMode": flags += ["-swift-version", str(v[0]).lstrip("v")]
    return flags

def language_mode(m):
    modes = m.get("swiftLanguageVersions") or []
    if modes: return str(modes[-1]).lstrip("v").split(".")[0]
    return "6" if int(m["toolsVersion"]["_version"].split(".")[0]) >= 6 else "5"

# --- build in dependency order -------------------------------------------------------------
mods_dir = os.path.join(work, "modules"); logs = os.path.join(work, "logs")
shutil.rmtree(work, ignore_errors=True); os.makedirs(mods_dir); os.makedirs(logs)
order, seen = [], set()
def visit(n):
    if n in seen: return
    seen.add(n)
    for d in modules[n]["deps"]: visit(d)
    order.append(n)
for n in sorted(modules): visit(n)

common = ["-target", triple, "-sdk", sdk, "-resource-dir", res,
          "-module-cache-path", os.path.join(os.path.abspath(args.work), "module-cache-" + sdk_name),
          "-I", mods_dir, "-Onone", "-g", "-enable-testing", "-parse-as-library", "-wmo",
          "-DSWIFT_PACKAGE", "-DDEBUG"]
snippet_origin = {}   # extracted file -> (document, line of the block's first line)
diag_re = re.compile(r"^(/[^:]+):(\d+):(\d+): (error|warning): (.*)$")
errors = warnings = 0

def where(path, line):
    """A diagnostic's place: a document's line for an extracted block, else the path."""
    if path in snippet_origin:
        doc, first = snippet_origin[path]
        return f"{os.path.relpath(doc, pkg)}:{first + line - 1}"
    return f"{os.path.relpath(path, pkg) if path.startswith(pkg) else path}:{line}"

def print_diagnostics(output, own):
    """Prints and counts the compiler's diagnostics once each (another package's
    warnings are not ours); returns the set seen."""
    global errors, warnings
    seen = set()
    for line in output.splitlines():
        m = diag_re.match(line)
        if not m: continue
        path, ln, col, sev, msg = m.groups()
        if (path, ln, col, sev, msg) in seen: continue
        seen.add((path, ln, col, sev, msg))
        if own or sev == "error":
            print(f"{where(path, int(ln))}:{col}: {sev}: {msg}")
            if sev == "error": errors += 1
            else: warnings += 1
    return seen
failed, report = set(), []
c_include = []
for n in order:
    info = modules[n]
    base, files = sources(info)
    swift_files = [f for f in files if f.endswith(".swift")]
    if not swift_files:   # a C target: its include/ folder with a module map
        inc = os.path.join(base, "include")
        if os.path.isdir(inc):
            if not os.path.exists(os.path.join(inc, "module.modulemap")):
                headers = [h for h in os.listdir(inc) if h.endswith(".h")]
                mm_dir = os.path.join(work, "c-modules", n); os.makedirs(mm_dir, exist_ok=True)
                with open(os.path.join(mm_dir, "module.modulemap"), "w") as f:
                    f.write(f'module {n} {{\n' + "".join(f'  header "{os.path.join(inc, h)}"\n' for h in headers) + "  export *\n}\n")
                c_include += ["-I", mm_dir, "-Xcc", "-I" + inc]
            else:
                c_include += ["-I", inc]
        continue
    if any(d in failed for d in info["deps"]) and not args.keep_going:
        failed.add(n); report.append(f"{n}: not built, a module it needs failed"); continue
    cmd = ["swiftc", "-emit-module", "-module-name", n, "-emit-module-path", os.path.join(mods_dir, n + ".swiftmodule")]
    cmd += common + c_include + ["-swift-version", language_mode(info["manifest"]), "-package-name", info["identity"]]
    cmd += setting_flags(info)
    if info["own"]:
        if args.app_extension: cmd.append("-application-extension")
    else:
        cmd += ["-Xfrontend", "-experimental-skip-all-function-bodies", "-suppress-warnings"]
    if info["target"].get("resources"):
        # SwiftPM generates `Bundle.module` for a target with resources; a stand-in for type-checking.
        accessor = os.path.join(work, "resource-accessors", n + ".swift")
        os.makedirs(os.path.dirname(accessor), exist_ok=True)
        with open(accessor, "w") as f:
            f.write("import Foundation\nextension Foundation.Bundle {\n"
                    "    static let module: Bundle = Bundle.main\n}\n")
        swift_files = swift_files + [accessor]
    cmd += swift_files
    r = subprocess.run(cmd, capture_output=True, text=True)
    with open(os.path.join(logs, n + ".log"), "w") as f: f.write(r.stdout + r.stderr)
    seen_diags = print_diagnostics(r.stdout + r.stderr, info["own"])
    if r.returncode != 0:
        failed.add(n)
        if not seen_diags:
            print(f"{n}: swiftc exited {r.returncode} without a diagnostic; log: {os.path.join(logs, n + '.log')}")
            errors += 1
    report.append(f"{n}: {'failed' if r.returncode else 'ok'}")

# --- what an app writes: the documents' iOS blocks and the reference app ----------------------
APPLE_IMPORTS = {"UIKit", "SwiftUI", "WebKit", "AnnaUIKit", "AnnaSwiftUI", "AnnaApple", "AnnaWebKit"}

def document_blocks():
    """The Swift blocks of the README and the articles: (path, line of the fence, marker, text)."""
    docs = [os.path.join(pkg, "README.md")]
    catalog = os.path.join(pkg, "Sources", "Anna", "Anna.docc")
    docs += sorted(os.path.join(catalog, f) for f in os.listdir(catalog) if f.endswith(".md"))
    for doc in docs:
        lines = open(doc, encoding="utf-8").read().split("\n")
        index = 0
        while index < len(lines):
            if lines[index].strip() == "```swift":
                fence, indentation = index, len(lines[index]) - len(lines[index].lstrip(" "))
                marker = lines[index - 1].strip() if index > 0 else ""
                body = []
                index += 1
                while index < len(lines) and lines[index].strip() != "```":
                    body.append(lines[index][min(indentation, len(lines[index]) - len(lines[index].lstrip(" "))):])
                    index += 1
                yield doc, fence + 1, marker, "\n".join(body) + "\n"
            index += 1

@functools.cache
def anna_tool():
    """The package's own `anna`, built (or found up to date) once: the Swift it
    generates is what this checkout's generator writes. $ANNA_SWIFT_BUILD_FLAGS (for
    instance `--enable-all-traits`) match the build already made, so nothing rebuilds."""
    flags = os.environ.get("ANNA_SWIFT_BUILD_FLAGS", "").split()
    r = subprocess.run(["swift", "build", *flags, "--product", "anna"], cwd=pkg, capture_output=True, text=True)
    if r.returncode != 0:
        print(r.stdout[-2000:] + r.stderr[-2000:])
        print("apple sdk check: cannot build the anna tool to generate Swift from specs")
        sys.exit(2)
    return os.path.join(pkg, ".build", "debug", "anna")

@functools.cache
def generated(spec):
    """The Swift that `anna generate` writes for `spec`, as the build plugin would; once per spec."""
    out = os.path.join(work, "generated", os.path.basename(spec).replace(".yml", ".swift"))
    os.makedirs(os.path.dirname(out), exist_ok=True)
    r = subprocess.run([anna_tool(), "generate", spec, "--output-file", out], cwd=pkg, capture_output=True, text=True)
    if r.returncode != 0:
        print(r.stdout + r.stderr)
        print(f"apple sdk check: anna generate failed for {os.path.relpath(spec, pkg)}")
        sys.exit(2)
    return out

def compile_app_module(name, files, extension):
    """Compiles `files` as an app's (or an app extension's) own module."""
    global errors
    cmd = ["swiftc", "-emit-module", "-module-name", name, "-emit-module-path", os.path.join(work, "apps", name + ".swiftmodule")]
    cmd += common + c_include + ["-swift-version", "6"] + files
    if extension: cmd.append("-application-extension")
    os.makedirs(os.path.join(work, "apps"), exist_ok=True)
    r = subprocess.run(cmd, capture_output=True, text=True)
    with open(os.path.join(logs, name + ".log"), "w") as f: f.write(r.stdout + r.stderr)
    seen_diags = print_diagnostics(r.stdout + r.stderr, True)
    if r.returncode != 0 and not seen_diags:
        print(f"{name}: swiftc exited {r.returncode} without a diagnostic; log: {os.path.join(logs, name + '.log')}")
        errors += 1
    report.append(f"{name}: {'failed' if r.returncode else 'ok'}")


apps = []
if not failed:
    docs_spec = os.path.join(pkg, "Tests", "AnnaDocumentationTests", "catalog.anna.yml")
    snippets_dir = os.path.join(work, "snippets")
    os.makedirs(snippets_dir, exist_ok=True)
    counts = {}
    for doc, fence, marker, text in document_blocks():
        imports = set(re.findall(r"^(?:@\S+\s+)?import\s+(\w+)", text, re.M))
        if marker == "<!-- compiled: ios -->":
            if args.app_extension: continue
            stem = os.path.basename(doc).removesuffix(".md").replace("README", "Readme")
            counts[stem] = counts.get(stem, 0) + 1
            name = f"Snippet{stem}{counts[stem]}"
            path = os.path.join(snippets_dir, name + ".swift")
            with open(path, "w") as f: f.write(text)
            snippet_origin[path] = (doc, fence + 1)
            apps.append((name, [path, generated(docs_spec)], False))
        elif imports & APPLE_IMPORTS and not marker.startswith("<!-- fragment:"):
            print(f"{os.path.relpath(doc, pkg)}:{fence}:1: error: this Swift block imports {', '.join(sorted(imports & APPLE_IMPORTS))}: "
                  "mark it <!-- compiled: ios --> (compiled for iOS by this script) or <!-- fragment: why it cannot compile -->")
            errors += 1
    example = os.path.join(pkg, "Examples", "iOSApp")
    if os.path.isdir(example):
        example_spec = generated(os.path.join(example, "shop-ios.anna.yml"))
        part, extension = ("Extension", True) if args.app_extension else ("App", False)
        folder = os.path.join(example, part)
        files = sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".swift"))
        apps.append((f"ShopiOS{part}", files + [example_spec], extension))
for name, files, extension in apps:
    compile_app_module(name, files, extension)

own = [n for n in order if modules[n]["own"] and any(f.endswith('.swift') for f in sources(modules[n])[1])]
print("modules: " + ", ".join(report))
if host_only: print("host-only library targets, not checked for iOS: " + ", ".join(host_only))
print(f"apple sdk check ({sdk_name}, {triple}{', app extension' if args.app_extension else ''}): "
      f"{errors} error(s), {warnings} warning(s) in {len(own)} module(s) of the package and {len(apps)} app module(s)")
sys.exit(0 if errors == 0 and warnings == 0 else 1)
