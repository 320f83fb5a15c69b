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
# generator ran and what SwiftPM says it compiled.
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
    analytics.report(.$first(title: "t", channel: .mail, tags: [], isFirstTime: true, things: []))
}
S
cd "$d"
echo "cold build:"; /usr/bin/time -f "  %e s wall" swift build --target App 2>&1 | grep -E "error|wall" || true
timed() {  # label
    local start end
    start=$(date +%s.%N)
    swift build --target App > "$d/build.txt" 2>&1 || { cat "$d/build.txt"; exit 1; }
    end=$(date +%s.%N)
    printf "%s: %.2f s; generator ran: %s; compiled: %s\n" "$1" "$(echo "$end - $start" | bc)" \
        "$(grep -q "Anna: generating" "$d/build.txt" && echo yes || echo no)" \
        "$(grep -oE "Compiling App .*" "$d/build.txt" | sed 's/^Compiling App //' | tr '\n' ' ')"
}
for round in $(seq "$runs"); do
    timed "no change"
    sed -i -E "s/^(    description: Event 500)( \(edit [0-9]+\))? of/\1 (edit $round) of/" Sources/App/plan.anna.yml
    timed "one event's description in the plan"
    sed -i "s#^// edit: .*#// edit: $round#" Sources/App/App.swift
    timed "one line of App.swift"
done
rm -rf "$d"
