#!/usr/bin/env bash
# Measures the generator on a 1,000-event spec (scripts/make-large-spec.py), and
# type-checking on the same spec with ten object types and a list of one in every
# event (--objects) against the same structs and factories written by hand:
# the `anna generate` and `anna export` processes, libyaml alone pulling the same file's events,
# and `swiftc -typecheck` on the generated Swift against the same API written by
# hand in the analytics-service article's style (scripts/article-style.py).
# In-process timings (no process start-up) come from the Benchmarks package:
#   swift package --package-path Benchmarks benchmark --target GeneratorBenchmarks
set -euo pipefail
cd "$(dirname "$0")/.."
events="${1:-1000}"
runs="${RUNS:-10}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 scripts/make-large-spec.py "$events" "$work/large.anna.yml"
swift build -c release --product anna >/dev/null
OUT="$work/bare-parse" sh Benchmarks/YAMLParse/build.sh >/dev/null

# median of N wall-clock runs of a command, in milliseconds
median_ms() {
    python3 - "$runs" "$@" <<'PY'
import statistics, subprocess, sys, time
runs, command = int(sys.argv[1]), sys.argv[2:]
times = []
for _ in range(runs):
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    times.append((time.perf_counter() - start) * 1000)
print(f"{statistics.median(times):.1f}")
PY
}

# "wall median W ms (best B), CPU median C ms": CPU time (user + system) is less
# disturbed than wall time when other builds share the cores.
process_ms() {
    python3 - "$runs" "$@" <<'PY'
import os, statistics, subprocess, sys, time
runs, command = int(sys.argv[1]), sys.argv[2:]
wall, cpu = [], []
for _ in range(runs):
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall.append((time.perf_counter() - start) * 1000)
    cpu.append((usage.ru_utime + usage.ru_stime) * 1000)
    if status != 0:
        sys.exit(f"{command[0]} failed")
print(f"wall median {statistics.median(wall):.1f} ms (best {min(wall):.1f}), CPU median {statistics.median(cpu):.1f} ms")
PY
}

echo "spec: $events events, $(wc -c < "$work/large.anna.yml") bytes"
"$work/bare-parse" "$work/large.anna.yml" 20
# The same C program as a process that reads the file and parses it once: the
# whole-process floor for a libyaml-based generator.
echo "bare libyaml parse (process, one parse): $(process_ms "$work/bare-parse" "$work/large.anna.yml" 1)"
# Start-up alone (loading the Swift runtime, Foundation and everything linked in).
echo "anna --help (process, start-up only): $(process_ms .build/release/anna --help)"
# All runs write into one folder: the first writes the file, the others find it unchanged.
echo "anna generate (process, release): $(process_ms .build/release/anna generate "$work/large.anna.yml" --output "$work/out")"
# The plan for the server-side engines (issue 54): one Segment plan file, and one
# Iglu schema per event (1,000 files, written only when their bytes change).
echo "anna export --format segment (process, release): $(process_ms .build/release/anna export "$work/large.anna.yml" --format segment --output-file "$work/plan.json")"
echo "anna export --format iglu (process, release): $(process_ms .build/release/anna export "$work/large.anna.yml" --format iglu --vendor com.example --output "$work/iglu")"

# The Anna module (and swift-log's Logging, which it imports) as SwiftPM built them.
swift build -c release --target Anna >/dev/null
mkdir -p "$work/module"
cp -R .build/release/Modules/. "$work/module/"
python3 scripts/article-style.py "$work/large.anna.yml" "$work/article.swift"
generated="$work/out/large.anna.swift"
echo "generated: $(wc -l < "$generated") lines; article style: $(wc -l < "$work/article.swift") lines"
echo "swiftc -typecheck generated: median $(median_ms swiftc -typecheck -swift-version 6 -I "$work/module" "$generated") ms"
echo "swiftc -typecheck article style: median $(median_ms swiftc -typecheck -swift-version 6 -I "$work/module" "$work/article.swift") ms"

python3 scripts/make-large-spec.py "$events" "$work/objects.anna.yml" --objects
.build/release/anna generate "$work/objects.anna.yml" --output "$work/out" >/dev/null
python3 scripts/article-style.py "$work/objects.anna.yml" "$work/article-objects.swift"
echo "with object types: generated $(wc -l < "$work/out/objects.anna.swift") lines; article style $(wc -l < "$work/article-objects.swift") lines"
echo "swiftc -typecheck generated, object types: median $(median_ms swiftc -typecheck -swift-version 6 -I "$work/module" "$work/out/objects.anna.swift") ms"
echo "swiftc -typecheck article style, object types: median $(median_ms swiftc -typecheck -swift-version 6 -I "$work/module" "$work/article-objects.swift") ms"
