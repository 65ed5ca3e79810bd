#!/usr/bin/env bash
# Runs one fuzz target for a number of seconds, starting from its kept corpus, then minimizes the
# corpus so the next run starts where this one stopped.
#   Fuzz/run.sh FuzzJSON|FuzzGPX|FuzzRender [SECONDS] [JOBS]
# Findings are written to Fuzz/findings/; add each one as a regression test.
set -euo pipefail
cd "$(dirname "$0")"
target=${1:?target}
seconds=${2:-600}
jobs=${3:-1}
# --sanitize links libFuzzer and ASan; -Xswiftc -sanitize=fuzzer also instruments the
# detour-report modules, without which libFuzzer sees no coverage from the code it explores.
flags=(-c release --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer)
swift build "${flags[@]}" --product "$target" >/dev/null
binary="$(swift build "${flags[@]}" --show-bin-path)/$target"
# The kept corpus is one compressed archive per target: a few thousand JSON and GPX files of up
# to 64 KiB each compress about tenfold, and the repository carries one file instead of them.
corpus="corpus/$target.tar.xz"
mkdir -p corpus findings
# Seeds: the samples and the vendored corpora (a file already kept is not copied twice).
case "$target" in
    FuzzGPX) seeds=(../samples/*.gpx ../Tests/Corpus/gpx-real/*.gpx ../Tests/Corpus/hostile/*.gpx ../Tests/Twins/*.gpx) ;;
    *)       seeds=(../samples/*.json ../Tests/Corpus/hostile/*.json ../Tests/Twins/*.json) ;;
esac
# What a run grows lives in .corpus/ (ignored), so a run that is killed keeps it for the next.
grown=".corpus/$target"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/seeds" "$grown" "$scratch/merged"
cp "${seeds[@]}" "$scratch/seeds/" 2>/dev/null || true
if [ -f "$corpus" ]; then tar -xJf "$corpus" -C "$grown"; fi
export SWIFT_BACKTRACE=enable=no
# LeakSanitizer reports Swift's lazily initialised globals (static lets, set once and kept for
# the life of the process) as leaks at exit, which ended a clean FuzzRender run as a "finding";
# Swift frees by reference counting, so leak checks at exit add nothing but that noise.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
common=(-max_len=65536 -rss_limit_mb=2048 -artifact_prefix=findings/"$target"-)
status=0
if [ "$jobs" -gt 1 ]; then
    "$binary" "$grown" "$scratch/seeds" -max_total_time="$seconds" "${common[@]}" \
        -fork="$jobs" -ignore_crashes=0 -print_final_stats=1 || status=$?
else
    "$binary" "$grown" "$scratch/seeds" -max_total_time="$seconds" "${common[@]}" -print_final_stats=1 || status=$?
fi
# 72 is libFuzzer's exit after an interrupt (Ctrl-C): the run stopped early, nothing was found.
if [ "$status" -ne 0 ] && [ "$status" -ne 72 ]; then
    echo "fuzz: $target found a problem (exit $status); see Fuzz/findings/" >&2
    exit "$status"
fi
# Keep only what adds coverage: the committed corpus stays small.
"$binary" -merge=1 "$scratch/merged" "$grown" "$scratch/seeds" "${common[@]}" >/dev/null 2>&1
# Sorted names, no owners or times: the same corpus gives the same archive.
tar -C "$scratch/merged" --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -cJf "$corpus" .
echo "fuzz: $target corpus kept: $(ls "$scratch/merged" | wc -l) files, $(du -sh "$corpus" | cut -f1) compressed"
