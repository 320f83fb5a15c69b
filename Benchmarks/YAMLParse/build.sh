#!/bin/sh
# Builds bare_parse, the libyaml-only parse baseline, to $OUT (default /tmp/anna-bare-parse).
#   sh Benchmarks/YAMLParse/build.sh && /tmp/anna-bare-parse SPEC.anna.yml [RUNS]
# Needs a C compiler, pkg-config and libyaml (apt-get install libyaml-dev / brew install libyaml).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="${OUT:-/tmp/anna-bare-parse}"
# shellcheck disable=SC2046 # pkg-config's output is meant to be split into words
cc -O2 -std=c99 -Wall -Wextra "$here/bare_parse.c" $(pkg-config --cflags --libs yaml-0.1) -o "$out"
echo "built $out"
