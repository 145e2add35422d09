#!/bin/bash
# The campaign's datagen at nice 19 (from 28 Nov, twelfth session, 13:50): seeds 2728 and 2729
# with gen2ft3 (nets/gen2ft3-4p98m-h256.nnue, SHA-256 de267f0a..., docs/runs/nnue-checkpoints/
# ckpt-gen2ft3-4p98m-h256.nnue: gen2ft2 fine-tuned again on 4.98 M positions, written with the
# rounding's bias correction), which passed its SPRT [0, 5] against gen2ft2 at 10k nodes
# (gen2ft3-sprt.sh q-all-lr5e-5-e4; docs/strength.md), on 0d278eb's PGO x86-64-v3 build
# (pgo-gen2.sh: the TT prefetch), --hash 2 (a 2 MiB table makes a position with about 25% less
# CPU than 16 MiB and searches as well at 5,000 nodes: hash-match.sh, docs/datagen.md). The files
# of seeds 2726 and 2727 (gen2ft2, from the tenth session) end there. Each file runs through
# background.sh, so that a timed match started beside it gets its core.
cd /work/campaign
for seed in 2728 2729; do
  f=datagen/selfplay-0d278eb-gen2ft3-h2-seed$seed.bin
  pgrep -f "datagen --out $f" >/dev/null || \
    setsid ./background.sh bin/augur-lab-0d278eb-pgo3 datagen --out $f --positions 30000000 \
      --threads 1 --seed $seed --hash 2 --eval nnue \
      --eval-file /work/campaign/nets/gen2ft3-4p98m-h256.nnue \
      >> logs/datagen-$seed.log 2>&1 < /dev/null &
done
