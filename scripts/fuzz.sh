#!/usr/bin/env bash
# Fuzzes the spec loader (parse, validate, translate, render) with libFuzzer.
#
#   scripts/fuzz.sh [SECONDS]      # default 60
#
# Builds Fuzz/ (its own package, depending on this one by path) into .build-fuzz with
# -sanitize=fuzzer,address, seeds a scratch corpus with every *.anna.yml under Tests/
# and Examples/, and runs for SECONDS. The corpus lives in .build-fuzz/corpus and grows
# from run to run; crashes, timeouts and leaks land in .build-fuzz/artifacts.
# Not part of CI. Needs libyaml-dev and a toolchain with libFuzzer (Swift on Linux).
#
# Environment: FUZZ_ARGS, extra libFuzzer flags (e.g. FUZZ_ARGS="-only_ascii=1").
# To replay one input:  .build-fuzz/release/FuzzSpecLoader FILE
set -euo pipefail

seconds="${1:-60}"
case "$seconds" in
    ''|*[!0-9]*) echo "usage: $0 [SECONDS]" >&2; exit 2 ;;
esac

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
scratch="$root/.build-fuzz"
corpus="$scratch/corpus"
artifacts="$scratch/artifacts"
fuzzer="$scratch/release/FuzzSpecLoader"
log="$scratch/fuzz.log"

echo "==> building the fuzzer into .build-fuzz"
swift build --package-path Fuzz --scratch-path "$scratch" -c release \
    -Xswiftc -sanitize=fuzzer,address --product FuzzSpecLoader

echo "==> seeding $corpus"
mkdir -p "$corpus" "$artifacts"
while IFS= read -r -d '' spec; do
    # Flatten the path into a name, so seeds with the same file name do not overwrite each other.
    name="seed-$(printf '%s' "${spec#./}" | tr '/' '_')"
    cp "$spec" "$corpus/$name"
done < <(find Tests Examples -name '*.anna.yml' -type f -print0)
echo "    $(find "$corpus" -type f | wc -l | tr -d ' ') inputs"

echo "==> fuzzing for ${seconds}s (log: $log)"
status=0
# Let libFuzzer and ASan report crashes; the Swift backtracer would race them.
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"
# A known leak in Foundation's NSRegularExpression on Linux; see the file.
export LSAN_OPTIONS="suppressions=$root/Fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# shellcheck disable=SC2086
"$fuzzer" "$corpus" \
    -max_total_time="$seconds" \
    -max_len=4096 \
    -timeout=10 \
    -rss_limit_mb=4096 \
    -dict=Fuzz/yaml.dict \
    -artifact_prefix="$artifacts/" \
    -print_final_stats=1 \
    ${FUZZ_ARGS:-} \
    >"$log" 2>&1 || status=$?

echo "==> summary"
grep -E '^(#[0-9]+.*(DONE|pulse)|stat::|Done [0-9]+ runs)' "$log" | tail -n 12 || true
runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)"
speed="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)"
findings="$(find "$artifacts" -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'leak-*' -o -name 'oom-*' -o -name 'slow-unit-*' \) | wc -l | tr -d ' ')"
echo "executions: ${runs:-?}  exec/s: ${speed:-?}  seconds: $seconds  exit: $status"
echo "crashes/timeouts/leaks so far in .build-fuzz/artifacts: $findings"
if [ "$status" -ne 0 ]; then
    echo "==> the fuzzer stopped on a finding:"
    grep -E 'ERROR|SUMMARY|Fatal error|Test unit written|Deadly|timeout' "$log" | head -n 20 || true
fi
exit "$status"
