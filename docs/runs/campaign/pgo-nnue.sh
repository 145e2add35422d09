#!/bin/bash
# A PGO x86-64-v3 build of the lab at HEAD for the network's datagen (docs/datagen.md's recipe,
# the profile from `augur bench` and 6,000 positions of datagen with the checkpoint network).
set -e
cd /work/pgo
P=$HOME/.rustup/toolchains/1.95.0-x86_64-unknown-linux-gnu/lib/rustlib/x86_64-unknown-linux-gnu/bin
NET=/work/main/docs/runs/nnue-checkpoints/ckpt-4p03m-h128.nnue
rm -rf /tmp/pgo-data /tmp/pgo-train.bin*
RUSTFLAGS="-C target-cpu=x86-64-v2 -Cprofile-generate=/tmp/pgo-data" \
  nice -n 5 cargo build --release --target-dir target/pgo-gen -p augur -p augur-lab
target/pgo-gen/release/augur bench
target/pgo-gen/release/augur bench --eval nnue --eval-file $NET
target/pgo-gen/release/augur-lab datagen --out /tmp/pgo-train.bin --positions 6000 --threads 1 --seed 99 --eval nnue --eval-file $NET --quiet
$P/llvm-profdata merge -o /tmp/pgo.profdata /tmp/pgo-data/*.profraw
RUSTFLAGS="-C target-cpu=x86-64-v3 -Cprofile-use=/tmp/pgo.profdata" \
  nice -n 5 cargo build --release --target-dir target/pgo-use -p augur -p augur-lab
C=$(git rev-parse --short HEAD)
cp target/pgo-use/release/augur-lab /work/campaign/bin/augur-lab-$C-pgo3
cp target/pgo-use/release/augur /work/campaign/bin/augur-$C-pgo3
echo done $C
