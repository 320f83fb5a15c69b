#!/usr/bin/env bash
# The build plugin's tool prebuilt (issue 51): builds `anna-generate` in release mode,
# puts it in a SwiftPM artifact bundle, and writes beside it `anna-plugins`, a package
# whose build plugin runs that binary instead of compiling the tool from source.
#   scripts/build-artifactbundle.sh [OUT]      # OUT defaults to .build-artifact (ignored by git)
#   RELEASE_URL=https://…/anna-generate.artifactbundle.zip scripts/build-artifactbundle.sh [OUT]
# Writes OUT/anna-plugins/: Package.swift, Plugins/AnnaPrebuiltPlugin/ (the same source
# as Plugins/AnnaPlugin, so `context.tool(named: "anna-generate")` is unchanged) and
# anna-generate.artifactbundle/ (info.json and the binary), which the package names with
# `.binaryTarget(path:)`. An app depends on Anna for the runtime and on anna-plugins for
# the plugin (Benchmarks/README.md, "The build plugin with its tool prebuilt").
# With RELEASE_URL: also zips the bundle (OUT/anna-generate.artifactbundle.zip, the
# release asset), and the package names it by `.binaryTarget(url:checksum:)` instead,
# the checksum from `swift package compute-checksum`; that package is what a release
# publishes as its own repository, tagged with Anna's version.
# On Linux the binary links the Swift runtime and Foundation statically
# (--static-swift-stdlib) and libyaml statically (its libyaml.a, from libyaml-dev), so it
# needs only glibc, libstdc++ and libgcc_s: the script prints `ldd` of it. On macOS (not
# run here) it builds the universal binary (arm64 and x86_64); a release merges both
# variants into one info.json (see Benchmarks/README.md).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$repo/.build-artifact}
mkdir -p "$out"; out=$(cd "$out" && pwd)
version=$(sed -n 's/.*static let annaVersion = "\(.*\)"/\1/p' "$repo/Sources/Anna/Events/AnalyticsContext.swift")
scratch=$out/build

case "$(uname -s)" in
Linux)
    triple=$(uname -m)-unknown-linux-gnu
    libyaml=$(pkg-config --variable=libdir yaml-0.1)/libyaml.a
    [ -f "$libyaml" ] || { echo "no $libyaml: install libyaml-dev"; exit 1; }
    # CYAML's flags come from pkg-config: a yaml-0.1.pc whose -L names a folder with
    # libyaml.a alone makes the linker take the archive, so the binary needs no libyaml.
    mkdir -p "$scratch/static-libyaml/pkgconfig"
    ln -sf "$libyaml" "$scratch/static-libyaml/libyaml.a"
    sed "s#^Libs: .*#Libs: -L$scratch/static-libyaml -lyaml#" "$(pkg-config --variable=pcfiledir yaml-0.1)/yaml-0.1.pc" \
        > "$scratch/static-libyaml/pkgconfig/yaml-0.1.pc"
    PKG_CONFIG_PATH="$scratch/static-libyaml/pkgconfig" \
        swift build -c release --product anna-generate --scratch-path "$scratch" --static-swift-stdlib >&2
    binary=$scratch/release/anna-generate
    triples="\"$triple\""
    ;;
Darwin)
    # Not run on this project's machines: a universal binary. A release must link a
    # universal libyaml.a as above (not scripted): Homebrew's dylib would be needed on
    # every app's machine.
    swift build -c release --product anna-generate --scratch-path "$scratch" --arch arm64 --arch x86_64 >&2
    binary=$scratch/apple/Products/Release/anna-generate
    triple=universal-apple-macosx
    triples='"arm64-apple-macosx", "x86_64-apple-macosx"'
    ;;
*) echo "unsupported system $(uname -s)"; exit 1 ;;
esac

package=$out/anna-plugins
bundle=$package/anna-generate.artifactbundle
variant=anna-generate-$version-$triple
rm -rf "$package"
mkdir -p "$bundle/$variant/bin" "$package/Plugins/AnnaPrebuiltPlugin"
cp "$binary" "$bundle/$variant/bin/anna-generate"
strip "$bundle/$variant/bin/anna-generate" 2>/dev/null || true
cat > "$bundle/info.json" <<J
{
  "schemaVersion": "1.0",
  "artifacts": {
    "anna-generate": {
      "version": "$version",
      "type": "executable",
      "variants": [
        { "path": "$variant/bin/anna-generate", "supportedTriples": [$triples] }
      ]
    }
  }
}
J
# The plugin's source as the package has it, with the shared file copied, not linked.
cp "$repo/Plugins/AnnaPlugin/AnnaPlugin.swift" "$repo/Plugins/PluginsShared/"*.swift "$package/Plugins/AnnaPrebuiltPlugin/"

binaryTarget="path: \"anna-generate.artifactbundle\""
if [ -n "${RELEASE_URL:-}" ]; then
    (cd "$package" && rm -f "$out/anna-generate.artifactbundle.zip" && zip -qry "$out/anna-generate.artifactbundle.zip" anna-generate.artifactbundle)
    cat > "$package/Package.swift" <<'P'
// swift-tools-version: 6.1
import PackageDescription
let package = Package(name: "anna-plugins")
P
    checksum=$(cd "$package" && swift package compute-checksum "$out/anna-generate.artifactbundle.zip")
    rm -rf "$bundle"
    binaryTarget="url: \"$RELEASE_URL\",
            checksum: \"$checksum\""
fi
cat > "$package/Package.swift" <<P
// swift-tools-version: 6.1
import PackageDescription

// Anna's build plugin with its tool prebuilt: written by Anna's
// scripts/build-artifactbundle.sh for Anna $version. Depend on Anna of the same
// version for the runtime, and apply this package's plugin instead of Anna's:
//   plugins: [.plugin(name: "AnnaPrebuiltPlugin", package: "anna-plugins")]
let package = Package(
    name: "anna-plugins",
    products: [
        .plugin(name: "AnnaPrebuiltPlugin", targets: ["AnnaPrebuiltPlugin"]),
    ],
    targets: [
        .binaryTarget(
            name: "AnnaGenerateBinary",
            $binaryTarget),
        .plugin(name: "AnnaPrebuiltPlugin", capability: .buildTool(), dependencies: ["AnnaGenerateBinary"]),
    ]
)
P

echo "anna-generate $version for $triple: $(du -h "$binary" | cut -f1) (stripped in the bundle: $(du -h "$package"/anna-generate.artifactbundle/*/bin/anna-generate 2>/dev/null | cut -f1))"
[ "$(uname -s)" = Linux ] && ldd "$binary"
echo "package: $package"
[ -n "${RELEASE_URL:-}" ] && echo "release asset: $out/anna-generate.artifactbundle.zip (checksum $checksum)"
exit 0
