#!/bin/bash
# The campaign's datagen at nice 19 (from 28 Nov, ninth session): seeds 2724 and 2725 with
# generation 2 fine-tuned on its own self-play (nets/gen2ft1-1p77m-h256.nnue, SHA-256
# 0bd88205..., docs/runs/nnue-checkpoints/ckpt-gen2ft1-1p77m-h256.nnue), which passed its SPRT
# [0, 5] against generation 2 at 10k nodes (ft-sprt.sh; docs/strength.md), on 0d278eb's PGO
# x86-64-v3 build (pgo-gen2.sh: the TT prefetch), --hash 2 (a 2 MiB table makes a position with
# about 25% less CPU than 16 MiB and searches as well at 5,000 nodes: hash-match.sh,
# docs/datagen.md). The files of seeds 2722 and 2723 (generation 2) end there. Each file runs
# through background.sh, so that a timed match started beside it gets its core.
cd /work/campaign
for seed in 2724 2725; do
  f=datagen/selfplay-0d278eb-gen2ft1-h2-seed$seed.bin
  pgrep -f "datagen --out $f" >/dev/null || \
    setsid ./background.sh bin/augur-lab-0d278eb-pgo3 datagen --out $f --positions 30000000 \
      --threads 1 --seed $seed --hash 2 --eval nnue \
      --eval-file /work/campaign/nets/gen2ft1-1p77m-h256.nnue \
      >> logs/datagen-$seed.log 2>&1 < /dev/null &
done
