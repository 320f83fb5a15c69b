#!/usr/bin/env bash
# Issue 51's guard: the Swift generated from a large plan type-checks with no
# expression over 200 ms. A literal or call whose size grows with the plan is one
# constraint system for the type checker, whose cost grows with the square of the
# plan (the catalog did: 3.7 GB at 200 events, out of 24 GB at 1,000); this fails on
# any such expression long before it hurts, and on any warning in generated code.
#   bash scripts/check-typecheck.sh [EVENTS]   # default 1000, with object types
# Needs the debug build of `anna` and of the Anna module (`swift build`, or the
# README's `swift test`). ANNA names another `anna` binary.
set -euo pipefail
cd "$(dirname "$0")/.."
events="${1:-1000}"
anna="${ANNA:-.build/debug/anna}"
limit="${LIMIT_MS:-200}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 scripts/make-large-spec.py "$events" "$work/plan.anna.yml" --objects
"$anna" generate "$work/plan.anna.yml" --output "$work" >/dev/null
echo "generated $(wc -l < "$work/plan.anna.swift") lines from a plan of $events events with object types"
start=$(date +%s.%N)
# A kill after 10 minutes: the quadratic catalog ran out of memory after that long.
if ! timeout 600 /usr/bin/time -f "type-check: %e s, peak memory %M KB" \
    swiftc -typecheck -swift-version 6 -warnings-as-errors \
    -Xfrontend -warn-long-expression-type-checking="$limit" \
    -I .build/debug/Modules -I Sources/CAnnaZlib/include "$work/plan.anna.swift" 2>"$work/log.txt"; then
    grep -E "error:|warning:|type-check:|Command" "$work/log.txt" | head -20
    echo "the generated Swift has an expression over ${limit} ms to type-check, or a warning, or did not finish"
    exit 1
fi
tail -1 "$work/log.txt"
echo "no expression over ${limit} ms ($(python3 -c "import time; print(f'{time.time() - $start:.1f}')") s in all)"
