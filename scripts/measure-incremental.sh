#!/usr/bin/env bash
# Issue 51: an app's incremental debug build after a one-line change, with a
# 1,000-event plan in its target through the build plugin. One target holds the plan
# (plan.anna.yml, from scripts/make-large-spec.py --objects) and a hand-written file
# that reports one of its events. After a cold build, it times `swift build`:
#   - with no change (the floor: planning and checking what is up to date);
#   - after editing one event's description in the plan (the plugin regenerates the
#     Swift, whose text changes in one doc comment);
#   - after editing one line of the hand-written file.
# Each edit is made RUNS times (default 3), alternating; prints each time, whether the
# generator ran and which object files the build wrote again.
#   bash scripts/measure-incremental.sh [EVENTS]
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
events="${1:-1000}"; runs="${RUNS:-3}"
d=$(mktemp -d /tmp/anna-incremental-XXXX)
mkdir -p "$d/Sources/App"
cat > "$d/Package.swift" <<P
// swift-tools-version: 6.1
import PackageDescription
let package = Package(name: "App", platforms: [.macOS(.v13)],
  dependencies: [.package(name: "anna", path: "$repo")],
  targets: [
    .target(name: "App", dependencies: [.product(name: "Anna", package: "anna")],
            plugins: [.plugin(name: "AnnaPlugin", package: "anna")]),
  ])
P
python3 "$repo/scripts/make-large-spec.py" "$events" "$d/Sources/App/plan.anna.yml" --objects
width=$(( ${#events} > 4 ? ${#events} : 4 ))
first=$(printf "event%0${width}dViewed" 1)
cat > "$d/Sources/App/App.swift" <<S
import Anna
// edit: 0
public func run(_ analytics: AnalyticsService) {
    analytics.report(.$first(title: "t", price: nil, channel: .mail, tags: [], isFirstTime: true, things: []))
}
S
cd "$d"
echo "cold build:"; /usr/bin/time -f "  %e s wall" swift build --target App 2>&1 | grep -E "error|wall" || true
timed() {  # label
    local start end generated
    touch "$d/marker"; sleep 1
    start=$(date +%s.%N)
    generated=$(swift build --target App 2>&1 | grep -c "Anna: generating" || true)
    end=$(date +%s.%N)
    printf "%s: %.2f s; generator ran: %s; object files rebuilt: %s\n" "$1" "$(echo "$end - $start" | bc)" \
        "$([ "$generated" -gt 0 ] && echo yes || echo no)" \
        "$(find .build/debug/App.build -name '*.o' -newer "$d/marker" -printf '%f ' 2>/dev/null)"
}
for round in $(seq "$runs"); do
    timed "no change"
    sed -i "0,/description: Event 500 of/s//description: Event 500 (edit $round) of/" Sources/App/plan.anna.yml
    timed "one event's description in the plan"
    sed -i "s#^// edit: .*#// edit: $round#" Sources/App/App.swift
    timed "one line of App.swift"
done
rm -rf "$d"
