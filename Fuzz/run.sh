#!/usr/bin/env bash
# Runs one fuzz target for a number of seconds, seeded from samples/ and the shared corpora.
#   Fuzz/run.sh FuzzJSON|FuzzGPX|FuzzRender [SECONDS]
# Findings are written to Fuzz/findings/; add each one as a regression test.
set -euo pipefail
cd "$(dirname "$0")"
target=${1:?target}
seconds=${2:-600}
# --sanitize links libFuzzer and ASan; -Xswiftc -sanitize=fuzzer also instruments the
# detour-report modules, without which libFuzzer sees no coverage from the code it explores.
flags=(-c release --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer)
swift build "${flags[@]}" --product "$target" >/dev/null
corpus=".corpus/$target"
mkdir -p "$corpus" findings
case "$target" in
    FuzzGPX) cp ../samples/*.gpx "$corpus"/ 2>/dev/null || true
             cp ../../shared/corpus/gpx-real/*.gpx ../../shared/corpus/hostile/*.gpx "$corpus"/ 2>/dev/null || true ;;
    *)       cp ../samples/*.json "$corpus"/ 2>/dev/null || true
             cp ../../shared/corpus/hostile/*.json "$corpus"/ 2>/dev/null || true ;;
esac
export SWIFT_BACKTRACE=enable=no
"$(swift build "${flags[@]}" --show-bin-path)/$target" "$corpus" -max_total_time="$seconds" -max_len=65536 \
    -rss_limit_mb=2048 -artifact_prefix=findings/"$target"- -print_final_stats=1
