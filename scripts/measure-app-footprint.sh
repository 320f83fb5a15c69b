#!/usr/bin/env bash
# What an app that depends on Anna checks out and how long its first build takes
# (issue 25), beside the same app on Segment's analytics-swift.
#   scripts/measure-app-footprint.sh anna [REV]   # a bare clone of this repository at REV (HEAD)
#   scripts/measure-app-footprint.sh anna-committed [REV]   # the same app with its generated code committed
#   scripts/measure-app-footprint.sh anna-prebuilt [REV]    # the plugin's tool prebuilt (anna-plugins)
#   SEGMENT_GIT=/path/to/bare/clones scripts/measure-app-footprint.sh segment
# The app: one target using Anna with the build plugin and a one-event spec, and a
# test target, depending on a bare clone by file:// URL as an app depends on a
# release. Prints the working copies checked out (MB) and times
# `swift build --target App` cold (everything but the checkouts new).
# anna-committed: no build plugin; the spec is excluded from the target and its Swift
# generated beforehand by `swift package anna generate`, as a team that commits it
# has it, so the timed build compiles no generator.
# anna-prebuilt: the build plugin from the anna-plugins package that
# scripts/build-artifactbundle.sh writes (PLUGINS, default .build-artifact/anna-plugins),
# copied beside the app, whose tool is a prebuilt binary: the timed build compiles no
# generator, and runs it.
# For Segment, SEGMENT_GIT names a folder with bare clones analytics-swift.git,
# Sovran-Swift.git and JSONSafeEncoding-Swift.git (not on this machine's package
# list: the search tool's fetch brings them).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
kind=$1; rev=${2:-HEAD}
d=$(mktemp -d /tmp/fp-$kind-XXXX)
mkdir -p $d/app/Sources/App $d/app/Tests/AppTests
if [ "$kind" != segment ]; then
  git clone -q --bare ${ANNA_REPO:-$repo} $d/anna.git
  git -C $d/anna.git branch -f measure $rev
  plugins=
  if [ "$kind" = anna-committed ]; then
    usage='exclude: ["app.anna.yml"]'
  elif [ "$kind" = anna-prebuilt ]; then
    cp -r "${PLUGINS:-$repo/.build-artifact/anna-plugins}" $d/anna-plugins
    plugins=", .package(path: \"$d/anna-plugins\")"
    usage='plugins: [.plugin(name: "AnnaPrebuiltPlugin", package: "anna-plugins")]'
  else
    usage='plugins: [.plugin(name: "AnnaPlugin", package: "anna")]'
  fi
  cat > $d/app/Package.swift <<P
// swift-tools-version: 6.1
import PackageDescription
let package = Package(name: "App", platforms: [.macOS(.v13)],
  dependencies: [.package(url: "file://$d/anna.git", branch: "measure")$plugins],
  targets: [
    .target(name: "App", dependencies: [.product(name: "Anna", package: "anna")],
            $usage),
    .testTarget(name: "AppTests", dependencies: ["App", .product(name: "AnnaTesting", package: "anna")]),
  ])
P
  cat > $d/app/Sources/App/app.anna.yml <<'Y'
anna: 1
namespace: AppAnalytics
events:
  categoryAdded:
    description: A category was added.
    parameters:
      categoryTitle: string
Y
  cat > $d/app/Sources/App/App.swift <<'S'
import Anna
public func run(_ analytics: AnalyticsService, title: String) { analytics.report(.categoryAdded(categoryTitle: title)) }
S
else
  cat > $d/app/Package.swift <<P
// swift-tools-version: 6.1
import PackageDescription
let package = Package(name: "App", platforms: [.macOS(.v13)],
  dependencies: [.package(url: "file://${SEGMENT_GIT:-/tmp/segmirror}/analytics-swift.git", from: "1.9.0")],
  targets: [
    .target(name: "App", dependencies: [.product(name: "Segment", package: "analytics-swift")]),
    .testTarget(name: "AppTests", dependencies: ["App"]),
  ])
P
  cat > $d/app/Sources/App/App.swift <<'S'
import Segment
public func run(_ analytics: Analytics, title: String) { analytics.track(name: "Category Added", properties: ["categoryTitle": title]) }
S
  (cd $d/app && swift package config set-mirror --original https://github.com/segmentio/sovran-swift.git --mirror file://${SEGMENT_GIT:-/tmp/segmirror}/Sovran-Swift.git && swift package config set-mirror --original https://github.com/segmentio/jsonsafeencoding-swift.git --mirror file://${SEGMENT_GIT:-/tmp/segmirror}/JSONSafeEncoding-Swift.git)
fi
echo 'import XCTest' > $d/app/Tests/AppTests/T.swift
cd $d/app
swift package resolve >/dev/null 2>&1
if [ "$kind" = anna-committed ]; then
  swift package --allow-writing-to-package-directory anna generate >/dev/null 2>&1
  ls Sources/App/AnnaGenerated/app.anna.swift >/dev/null
  find .build -mindepth 1 -maxdepth 1 ! -name checkouts ! -name repositories ! -name workspace-state.json -exec rm -rf {} +
fi
echo "checked out (apparent size of the working copies, KB):"; du -s --apparent-size --block-size=1K --exclude=.git .build/checkouts/* | sed 's/^/  /'
/usr/bin/time -f "cold build (App target): wall %e s, cpu user %U s sys %S s" swift build --target App 2>&1 | tail -3
echo "dir: $d"
