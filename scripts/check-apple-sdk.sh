#!/usr/bin/env bash
# Compiles Anna for iOS against a real iPhoneOS SDK with this (Linux) toolchain: every
# library target, the documents' `<!-- compiled: ios -->` blocks and Examples/iOSApp,
# as an app and as an app extension (scripts/check-apple-sdk.py says how). The SDK:
# $ANNA_IOS_SDK, else ~/.cache/anna-apple/iPhoneOS18.6.sdk; CONTRIBUTING.md says how to
# get one. Without one it prints one line saying so and exits 0 (.ci/run calls it).
# Exits 1 on any error or warning.
set -uo pipefail
cd "$(dirname "$0")/.."
sdk="${ANNA_IOS_SDK:-$HOME/.cache/anna-apple/iPhoneOS18.6.sdk}"
if [ ! -f "$sdk/usr/lib/swift/Swift.swiftmodule/arm64-apple-ios.swiftinterface" ]; then
    echo "apple sdk check: skipped: no iOS SDK at $sdk (set ANNA_IOS_SDK, or see CONTRIBUTING.md, 'Compiling for iOS')"
    exit 0
fi
status=0
python3 scripts/check-apple-sdk.py --sdk "$sdk" || status=1
python3 scripts/check-apple-sdk.py --sdk "$sdk" --app-extension || status=1
exit $status
