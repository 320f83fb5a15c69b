#!/usr/bin/env bash
# Context switches and CPU of a whole process at an app's rates, one process per SDK,
# the same loopback collector (Tests/AnnaDeliveryTests/collector.py), alternating
# (issue 41). Builds Benchmarks/Energy/ (release) against Anna at each REV, and
# against Segment's analytics-swift when SEGMENT_GIT names a folder with its bare
# clones (analytics-swift, Sovran-Swift and JSONSafeEncoding-Swift, each a git dir;
# the search tool's fetch brings them; nothing of them is committed).
#   scripts/measure-energy.sh [ROUNDS [REV...]]     # REVs default to HEAD; "." is the working tree
#   PHASES="rate 0.5 30;rate 5 30;idle 100 20"      # what each round runs (the defaults)
# Prints one JSON line per process: client, phase, switches, cpuMs.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-3}; shift || true
revs=("${@:-HEAD}")
IFS=';' read -ra phases <<< "${PHASES:-rate 0.5 30;rate 5 30;idle 100 20}"
work=${ENERGY_WORK:-/tmp/anna-energy}
mkdir -p $work
apps=()

# make_app NAME PACKAGE_DEPENDENCY PRODUCT CLIENT_FILE
make_app() {
  local d=$work/app-$1
  mkdir -p $d/Sources/EnergyApp
  cat > $d/Package.swift <<P
// swift-tools-version: 6.1
import PackageDescription
let package = Package(name: "EnergyApp", platforms: [.macOS(.v13)],
  dependencies: [$2],
  targets: [.executableTarget(name: "EnergyApp", dependencies: [$3], swiftSettings: [.swiftLanguageMode(.v5)])])
P
  cp $repo/Benchmarks/Energy/main.swift $repo/Benchmarks/Energy/$4 $d/Sources/EnergyApp/
  # ENERGY_REUSE=1 runs what an earlier run built.
  if [ -z "${ENERGY_REUSE:-}" ] || [ ! -x $d/.build/release/EnergyApp ]; then
    (cd $d && swift build -c release --product EnergyApp >$d/build.log 2>&1) || { tail -20 $d/build.log; exit 1; }
  fi
  apps+=("$1:$d/.build/release/EnergyApp")
}

for rev in "${revs[@]}"; do
  if [ "$rev" = . ]; then
    make_app anna-worktree ".package(path: \"$repo\")" ".product(name: \"Anna\", package: \"$(basename $repo)\")" AnnaClient.swift
  else
    sha=$(git -C $repo rev-parse --short $rev)
    [ -d $work/anna-$sha.git ] || git clone -q --bare $repo $work/anna-$sha.git
    git -C $work/anna-$sha.git branch -f measure $sha
    make_app anna-$sha ".package(url: \"file://$work/anna-$sha.git\", branch: \"measure\")" \
      ".product(name: \"Anna\", package: \"anna-$sha\")" AnnaClient.swift
  fi
done
if [ -n "${SEGMENT_GIT:-}" ]; then
  mkdir -p $work/app-segment/.swiftpm/configuration
  cat > $work/app-segment/.swiftpm/configuration/mirrors.json <<M
{"object": [
  {"original": "https://github.com/segmentio/sovran-swift.git", "mirror": "file://$SEGMENT_GIT/Sovran-Swift.git"},
  {"original": "https://github.com/segmentio/jsonsafeencoding-swift.git", "mirror": "file://$SEGMENT_GIT/JSONSafeEncoding-Swift.git"}
], "version": 1}
M
  make_app segment ".package(url: \"file://$SEGMENT_GIT/analytics-swift.git\", from: \"1.9.0\")" \
    '.product(name: "Segment", package: "analytics-swift")' SegmentClient.swift
fi
first=${apps[0]#*:}
apps+=("none:$first")

python3 -u $repo/Tests/AnnaDeliveryTests/collector.py 0 test-key > $work/collector.out &
collector=$!
trap 'kill $collector 2>/dev/null' EXIT
while ! grep -q PORT $work/collector.out 2>/dev/null; do sleep 0.1; done
port=$(awk '/PORT/ {print $2}' $work/collector.out)

for round in $(seq $rounds); do
  for phase in "${phases[@]}"; do
    for app in "${apps[@]}"; do
      name=${app%%:*}; binary=${app#*:}
      client=anna; [ $name = none ] && client=none; [ $name = segment ] && client=segment
      storage=$(mktemp -d $work/storage-XXXX)
      line=$(cd $storage && HOME=$storage $binary $client $port $storage $phase)
      echo "${line/\"client\": \"$client\"/\"client\": \"$name\"}"
      rm -rf $storage
    done
  done
done
