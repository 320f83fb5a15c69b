#!/usr/bin/env python3
"""How the type-check of the generated Swift grows with the plan (issue 51).

    python3 scripts/measure-typecheck.py [N ...] [--objects] [--runs R] [--anna PATH]

For each N (default 100 200 500 1000 2000) it writes a spec with
scripts/make-large-spec.py, generates its Swift with `anna generate` (the debug
build in .build, or --anna), and type-checks it with
`swiftc -typecheck -swift-version 6` against the debug build of Anna, as a new user's
first look at a plan would: the whole file, and the same file cut before
`extension EventCatalog` (the factories, types and metadata alone, what an app calls).
Each figure is the median of R runs (default 3) of wall-clock time and the largest
peak resident memory (`/usr/bin/time -f %M`). Prints one Markdown row per size, with
the ratio of the whole file to its factories and of each size to the one before.

Needs `swift build --product anna` and the debug `Anna` module (any `swift build`
or `swift test` of the package makes both).
"""
import argparse
import os
import pathlib
import re
import statistics
import subprocess
import sys
import tempfile

root = pathlib.Path(__file__).resolve().parent.parent


def typecheck(path, runs, modules):
    """(median seconds, peak MB, the compiler's output) of `swiftc -typecheck` on path."""
    seconds, peaks = [], []
    for _ in range(runs):
        result = subprocess.run(
            ["/usr/bin/time", "-f", "TIME %e %M", "swiftc", "-typecheck", "-swift-version", "6",
             "-I", str(modules), "-I", str(root / "Sources/CAnnaZlib/include"), str(path)],
            capture_output=True, text=True)
        match = re.search(r"TIME ([0-9.]+) ([0-9]+)", result.stderr)
        if result.returncode != 0 or not match:
            sys.exit(f"swiftc failed on {path}:\n{result.stderr[-3000:]}")
        seconds.append(float(match.group(1)))
        peaks.append(int(match.group(2)) / 1024)
    return statistics.median(seconds), max(peaks)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", nargs="*", type=int, default=[100, 200, 500, 1000, 2000])
    parser.add_argument("--objects", action="store_true", help="ten object types and a list of one in every event")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--anna", default=str(root / ".build/debug/anna"))
    parser.add_argument("--modules", default=str(root / ".build/debug/Modules"))
    arguments = parser.parse_args()
    modules = pathlib.Path(arguments.modules)
    if not (modules / "Anna.swiftmodule").exists():
        sys.exit(f"no Anna module in {modules}: run `swift build` first")
    print(f"| events{' (object types)' if arguments.objects else ''} | generated lines | whole file | peak memory | factories alone | peak memory | whole ÷ factories | time ÷ previous size |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    previous = None
    with tempfile.TemporaryDirectory() as work:
        work = pathlib.Path(work)
        for size in arguments.sizes:
            spec = work / f"plan{size}.anna.yml"
            command = [sys.executable, str(root / "scripts/make-large-spec.py"), str(size), str(spec)]
            subprocess.run(command + (["--objects"] if arguments.objects else []), check=True)
            subprocess.run([arguments.anna, "generate", str(spec), "--output", str(work)], check=True,
                           stdout=subprocess.DEVNULL)
            generated = work / f"plan{size}.anna.swift"
            text = generated.read_text(encoding="utf-8")
            cut = text.find("\nextension EventCatalog {")
            factories = work / f"factories{size}.swift"
            factories.write_text(text[:cut] + "\n" if cut >= 0 else text, encoding="utf-8")
            whole_seconds, whole_peak = typecheck(generated, arguments.runs, modules)
            alone_seconds, alone_peak = typecheck(factories, arguments.runs, modules)
            growth = f"{whole_seconds / previous[1]:.2f}× for {size / previous[0]:.1f}× the events" if previous else ""
            print(f"| {size:,} | {text.count(chr(10)):,} | {whole_seconds:.2f} s | {whole_peak:,.0f} MB | "
                  f"{alone_seconds:.2f} s | {alone_peak:,.0f} MB | {whole_seconds / alone_seconds:.2f} | {growth} |", flush=True)
            previous = (size, whole_seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
