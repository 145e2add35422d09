#!/bin/bash
# The campaign's datagen at nice 19 (from 28 Nov, eighth session): seeds 2722 and 2723 with
# --hash 2. A 2 MiB table makes a position with about 25% less CPU than the default 16 MiB (four
# processes' tables share the 32 MiB L3) and searches as well at 5,000 nodes (hash-match.sh:
# Hash 2 against Hash 16, 1,000 games, +1.7 [-14.7, +18.1] Elo; docs/datagen.md). The network is
# generation 2 (docs/runs/nnue-checkpoints/ckpt-6p99m-h256.nnue, SHA-256 b0a166e5...), the best
# engine so far, on 0d278eb's PGO x86-64-v3 build (pgo-gen2.sh: the TT prefetch). The files of
# seeds 2720 and 2721 (16 MiB, 3d5cd0d's build, then 0d278eb's: the same records) end there.
# Each file runs through background.sh, so that a timed match started beside it gets its core.
cd /work/campaign
for seed in 2722 2723; do
  f=datagen/selfplay-0d278eb-gen2-h2-seed$seed.bin
  pgrep -f "datagen --out $f" >/dev/null || \
    setsid ./background.sh bin/augur-lab-0d278eb-pgo3 datagen --out $f --positions 30000000 \
      --threads 1 --seed $seed --hash 2 --eval nnue \
      --eval-file /work/campaign/nets/gen2-6p99m-h256.nnue \
      >> logs/datagen-$seed.log 2>&1 < /dev/null &
done
