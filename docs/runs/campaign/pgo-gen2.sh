#!/bin/bash
# pgo-gen2.sh [COMMIT [NET]]: a PGO x86-64-v3 build of the lab at COMMIT (default 0d278eb, the
# TT prefetch) for the campaign's datagen with a generation-2 network NET (from 28 Nov, eighth
# session; NET from 29 Nov, twenty-first session, default generation 2 itself). docs/datagen.md's
# recipe, the profile from `augur bench` (both evaluations) and 2,000 positions of datagen with
# NET. Needs `rustup component add llvm-tools` (llvm-profdata).
set -e
COMMIT=${1:-0d278eb}
[ -d /work/pgo ] || git -C /work/main worktree add --detach /work/pgo $COMMIT
cd /work/pgo
git checkout -q --detach $COMMIT
# llvm-profdata from the toolchain that builds (its LLVM must read the profile)
P=$(rustc --print sysroot)/lib/rustlib/x86_64-unknown-linux-gnu/bin
NET=${2:-/work/campaign/nets/gen2-6p99m-h256.nnue}
rm -rf /tmp/pgo-data /tmp/pgo-train.bin*
RUSTFLAGS="-C target-cpu=x86-64-v2 -Cprofile-generate=/tmp/pgo-data" \
  cargo build --release --target-dir target/pgo-gen -p augur -p augur-lab
target/pgo-gen/release/augur bench
target/pgo-gen/release/augur bench --eval hce
target/pgo-gen/release/augur-lab datagen --out /tmp/pgo-train.bin --positions 2000 --threads 1 --seed 99 --eval nnue --eval-file $NET --quiet
$P/llvm-profdata merge -o /tmp/pgo.profdata /tmp/pgo-data/*.profraw
RUSTFLAGS="-C target-cpu=x86-64-v3 -Cprofile-use=/tmp/pgo.profdata" \
  cargo build --release --target-dir target/pgo-use -p augur -p augur-lab
C=$(git rev-parse --short HEAD)
cp target/pgo-use/release/augur-lab /work/campaign/bin/augur-lab-$C-pgo3
cp target/pgo-use/release/augur /work/campaign/bin/augur-$C-pgo3
echo done $C
