#!/usr/bin/env bash
# Builds the DocC catalog (Sources/Anna/Anna.docc) into .build-docs/Anna.doccarchive with
# the toolchain's docc, and fails on any docc warning. The Anna module's symbol graph is
# extracted from the debug build with swift-symbolgraph-extract, so no package plugin
# (swift-docc-plugin) is needed: an app that depends on Anna resolves nothing for the docs.
# Run after a debug build of Anna (`swift build --target Anna`, or `swift test`).
set -euo pipefail
cd "$(dirname "$0")/.."

bin=$(swift build --show-bin-path)
toolchain=$(dirname "$(command -v swift)")
docc=${DOCC:-$toolchain/docc}
extract=${SWIFT_SYMBOLGRAPH_EXTRACT:-$toolchain/swift-symbolgraph-extract}
triple=$(swift -print-target-info | python3 -c 'import json,sys; print(json.load(sys.stdin)["target"]["triple"])')

if [ ! -e "$bin/Modules/Anna.swiftmodule" ] && [ ! -e "$bin/Anna.swiftmodule" ]; then
    swift build --target Anna
fi
modules="$bin/Modules"
[ -d "$modules" ] || modules="$bin"

graphs=.build-docs/symbol-graphs
rm -rf "$graphs" .build-docs/Anna.doccarchive
mkdir -p "$graphs"
# The C modules Anna imports (CAnnaZlib) are found through their module maps.
includes=()
for map in Sources/*/include/module.modulemap "$bin"/*.build/module.modulemap; do
    [ -e "$map" ] && includes+=(-I "$(dirname "$map")")
done
"$extract" -module-name Anna -target "$triple" -I "$modules" "${includes[@]}" \
    -minimum-access-level public -skip-inherited-docs -output-dir "$graphs"

"$docc" convert Sources/Anna/Anna.docc \
    --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name Anna --fallback-bundle-identifier anna --fallback-default-module-kind 'Framework' \
    --output-path .build-docs/Anna.doccarchive \
    --warnings-as-errors 2>&1 | tee .build-docs/docc.log
if grep -qE 'warning:|error:' .build-docs/docc.log; then
    echo "docc reported problems in the catalog"
    exit 1
fi
echo "documentation: .build-docs/Anna.doccarchive"
