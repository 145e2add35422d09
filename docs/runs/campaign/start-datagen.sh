#!/bin/bash
# The campaign's datagen at nice 19 (from 28 Nov, fourteenth session, after the second lost
# machine took /work/campaign with it): seeds 2730 and 2731 with gen2ft3 (nets/gen2ft3-4p98m-
# h256.nnue, SHA-256 de267f0a..., docs/runs/nnue-checkpoints/ckpt-gen2ft3-4p98m-h256.nnue), the
# network embedded since 01960e4, on 43be651's x86-64-v3 build (the search of 0d278eb's PGO build
# that made 2728/2729: the commits between change no tree; the PGO build is rebuilt later, not
# waited for), --hash 2 (docs/datagen.md). New seeds, not 2728/2729 again: those files' games
# were trained on (gen2ft5) before they were lost, and the same seed would replay them.
cd /work/campaign
for seed in ${SEEDS:-2730 2731}; do
  f=datagen/selfplay-43be651-gen2ft3-h2-seed$seed.bin
  pgrep -f "datagen --out $f" >/dev/null || \
    setsid ./background.sh bin/augur-lab-43be651-v3 datagen --out $f --positions 30000000 \
      --threads 1 --seed $seed --hash 2 --eval nnue \
      --eval-file /work/campaign/nets/gen2ft3-4p98m-h256.nnue \
      >> logs/datagen-$seed.log 2>&1 < /dev/null &
done
