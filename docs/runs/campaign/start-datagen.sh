#!/bin/bash
# The campaign's datagen at nice 19: seeds 2720 and 2721 (from 27 Nov, seventh session; 2721 was
# started by hand at the end of the sixth). The machine was lost on 27 Nov between the fourth
# and fifth sessions (7.57 M positions with it; the committed networks survived), so the data
# starts again from generation 2 (the 6.99 M checkpoint's H = 256, committed as
# docs/runs/nnue-checkpoints/ckpt-6p99m-h256.nnue, SHA-256 b0a166e5...), the best engine so far,
# on 3d5cd0d's x86-64-v3 build, new files and seeds. Each file runs through background.sh, so
# that a timed match started beside it gets its core. From 28 Nov, eighth session, the binary is
# the PGO x86-64-v3 build of 0d278eb (pgo-gen2.sh: the TT prefetch; byte-identical records,
# about 14% less CPU a position than 3d5cd0d's plain build, docs/datagen.md).
cd /work/campaign
for seed in 2720 2721; do
  f=datagen/selfplay-3d5cd0d-gen2-seed$seed.bin
  pgrep -f "datagen --out $f" >/dev/null || \
    setsid ./background.sh bin/augur-lab-0d278eb-pgo3 datagen --out $f --positions 30000000 \
      --threads 1 --seed $seed --eval nnue --eval-file /work/campaign/nets/gen2-6p99m-h256.nnue \
      >> logs/datagen-$seed.log 2>&1 < /dev/null &
done
