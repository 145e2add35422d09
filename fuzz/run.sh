#!/bin/sh
# Runs every fuzz target (or the ones named) for SECONDS each, from the seed corpus in
# seeds/<target> (the corpus grown in corpus/<target> is kept between runs), at low
# priority, and prints each target's executions and crashes. A crash leaves its input in
# artifacts/<target>/ and the log in logs/<target>.log.
#   fuzz/run.sh 60                 # every target, one minute each
#   fuzz/run.sh 600 uci fen        # two targets, ten minutes each
# Needs the nightly toolchain and `cargo install cargo-fuzz`.
set -u
cd "$(dirname "$0")"
secs=${1:-60}
[ $# -gt 0 ] && shift
targets=${*:-$(cargo +nightly fuzz list)}
mkdir -p logs
cargo +nightly fuzz build || exit 1
total=0
failed=0
printf '%-16s %14s %8s\n' target executions crashes
for t in $targets; do
    mkdir -p "corpus/$t"
    dict=""
    [ -f "dicts/$t.dict" ] && dict="-dict=dicts/$t.dict"
    nice -n "${NICE:-15}" cargo +nightly fuzz run "$t" "corpus/$t" "seeds/$t" -- \
        -max_total_time="$secs" -timeout=30 -rss_limit_mb=4096 -print_final_stats=1 \
        $dict >"logs/$t.log" 2>&1
    status=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "logs/$t.log" | tail -1)
    runs=${runs:-0}
    crashes=0
    if [ $status -ne 0 ]; then
        crashes=1
        failed=1
    fi
    total=$((total + runs))
    printf '%-16s %14s %8s\n' "$t" "$runs" "$crashes"
done
printf '%-16s %14s\n' total "$total"
exit $failed
