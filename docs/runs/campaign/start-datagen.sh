#!/bin/bash
# The campaign's datagen at nice 19 (from 28 Nov, tenth session, 08:25): seeds 2726 and 2727 with
# gen2ft2 (nets/gen2ft2-4p41m-h256.nnue, SHA-256 99c5437c..., docs/runs/nnue-checkpoints/
# ckpt-gen2ft2-4p41m-h256.nnue: gen2ft1 fine-tuned again on 4.41 M positions), which passed its
# SPRT [0, 5] against gen2ft1 at 10k nodes (gen2ft2-sprt.sh; docs/strength.md), on 0d278eb's PGO
# x86-64-v3 build (pgo-gen2.sh: the TT prefetch), --hash 2 (a 2 MiB table makes a position with
# about 25% less CPU than 16 MiB and searches as well at 5,000 nodes: hash-match.sh,
# docs/datagen.md). The files of seeds 2724 and 2725 (gen2ft1, from the ninth session) end
# there. Each file runs through background.sh, so that a timed match started beside it gets its
# core.
cd /work/campaign
for seed in 2726 2727; do
  f=datagen/selfplay-0d278eb-gen2ft2-h2-seed$seed.bin
  pgrep -f "datagen --out $f" >/dev/null || \
    setsid ./background.sh bin/augur-lab-0d278eb-pgo3 datagen --out $f --positions 30000000 \
      --threads 1 --seed $seed --hash 2 --eval nnue \
      --eval-file /work/campaign/nets/gen2ft2-4p41m-h256.nnue \
      >> logs/datagen-$seed.log 2>&1 < /dev/null &
done
