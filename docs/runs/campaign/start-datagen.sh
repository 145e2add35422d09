#!/bin/bash
# The campaign's datagen (from 28 Nov, fifteenth session; its autogroup at nice 3 from the
# sixteenth, background.sh): from 29 Nov (sixteenth session, when gen2ft7 passed its SPRT
# against gen2ft5) seeds 2734 and 2735 with gen2ft7 (nets/gen2ft7-2p49m-h256.nnue,
# docs/runs/nnue-checkpoints/ckpt-gen2ft7-2p49m-h256.nnue, SHA-256 e7921c44...; embedded from the
# seventeenth session), by
# --eval-file on 0d278eb's PGO x86-64-v3 build (pgo-gen2.sh; 43be651's v3 build without it: the
# same search, no commit from 0d278eb to 43be651 changes a tree), --hash 2 (docs/datagen.md).
# Seeds 2732/2733 (gen2ft5, fifteenth and sixteenth sessions) end where they stopped; a new
# network gets new seeds, so that no file mixes two networks' games. The file names keep
# 43be651, the build that began the gen2ft5 files.
cd /work/campaign
LAB=bin/augur-lab-0d278eb-pgo3
[ -x $LAB ] || LAB=bin/augur-lab-43be651-v3
for seed in ${SEEDS:-2734 2735}; do
  f=datagen/selfplay-43be651-gen2ft7-h2-seed$seed.bin
  pgrep -f "datagen --out $f" >/dev/null || \
    PRIO=3 setsid ./background.sh $LAB datagen --out $f --positions 30000000 \
      --threads 1 --seed $seed --hash 2 --eval nnue \
      --eval-file /work/campaign/nets/gen2ft7-2p49m-h256.nnue \
      >> logs/datagen-$seed.log 2>&1 < /dev/null &
done
