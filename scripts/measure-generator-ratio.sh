#!/usr/bin/env bash
# Issue 22's generator target: the `anna generate` process on the 1,000-event plan of
# make_specs.py against yamlparse.c (libyaml pulling the same file's events) run as a
# process, median of RUNS (default 7) runs each, interleaved in the same run, start-up
# included on both sides; prints both medians and the ratio (target: at most 5x).
# Also the build plugin's tool, anna-generate, which does the same without the CLI,
# and, on Linux, `anna` linked with --static-swift-stdlib, as the README builds it
# for CI and as a Swift tool ships on Linux (STATIC=0 skips that build). Linked
# statically, the process skips loading and relocating Foundation and ICU (4 ms).
#   bash scripts/measure-generator-ratio.sh            # bench files from ../shared/bench
#   ANNA_BENCH=DIR SCRATCH=.build-prof bash scripts/measure-generator-ratio.sh
# With valgrind installed, CALLGRIND=1 also prints each process's instruction count,
# which a shared machine does not disturb.
set -euo pipefail
cd "$(dirname "$0")/.."
bench="${ANNA_BENCH:-../shared/bench}"
scratch="${SCRATCH:-.build}"
runs="${RUNS:-7}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 "$bench/make_specs.py" 1000 "$work" >/dev/null
cc -O2 "$bench/yamlparse.c" $(pkg-config --cflags --libs yaml-0.1) -o "$work/yamlparse"
swift build -c release --scratch-path "$scratch" --product anna >/dev/null
swift build -c release --scratch-path "$scratch" --product anna-generate >/dev/null
bin="$scratch/release"
static=""
if [ "${STATIC:-1}" = 1 ] && [ "$(uname)" = Linux ]; then
    swift build -c release --static-swift-stdlib --scratch-path "$scratch-static" --product anna >/dev/null
    static="$scratch-static/release/anna"
fi
plan="$work/plan.anna.yml"
echo "plan: $(wc -c < "$plan") bytes; generated: $("$bin/anna" generate "$plan" --output "$work/out" && wc -c < "$work/out/plan.anna.swift") bytes"

python3 - "$runs" "$work" "$bin" "$static" <<'PY'
import os, statistics, subprocess, sys, time
runs, work, bin, static = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
plan = f"{work}/plan.anna.yml"
commands = {
    "yamlparse (libyaml, process)": [f"{work}/yamlparse", plan, "1"],
    "anna generate": [f"{bin}/anna", "generate", plan, "--output", f"{work}/out"],
    "anna-generate (plugin tool)": [f"{bin}/anna-generate", plan, f"{work}/out2/plan.anna.swift"],
}
if static:
    commands["anna generate (--static-swift-stdlib)"] = [static, "generate", plan, "--output", f"{work}/out3"]
wall = {name: [] for name in commands}
cpu = {name: [] for name in commands}
for _ in range(runs):  # interleaved, so load changes hit every command alike
    for name, command in commands.items():
        start = time.perf_counter()
        child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(child.pid, 0)
        wall[name].append((time.perf_counter() - start) * 1000)
        cpu[name].append((usage.ru_utime + usage.ru_stime) * 1000)
        if status != 0:
            sys.exit(f"{name} failed")
base = "yamlparse (libyaml, process)"
for name in commands:
    w, c = statistics.median(wall[name]), statistics.median(cpu[name])
    ratio = "" if name == base else f"  ratio {w / statistics.median(wall[base]):.1f}x wall, {c / statistics.median(cpu[base]):.1f}x CPU"
    print(f"{name}: median of {runs} wall {w:.1f} ms, CPU {c:.1f} ms{ratio}")
PY

if [ "${CALLGRIND:-0}" = 1 ] && command -v valgrind >/dev/null; then
    for command in "$work/yamlparse $plan 1" "$bin/anna generate $plan --output $work/out" "$bin/anna-generate $plan $work/out2/plan.anna.swift" ${static:+"$static generate $plan --output $work/out3"}; do
        # shellcheck disable=SC2086 # the command is meant to be split into words
        count=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null $command 2>&1 | sed -n 's/.*Collected : //p')
        echo "callgrind: $count instructions: ${command//$work\//}"
    done
fi
