#!/bin/bash
# The campaign's datagen (from 28 Nov, fifteenth session; its autogroup at nice 3 from the
# sixteenth, background.sh): seeds 2732 and 2733 with
# gen2ft5 (nets/gen2ft5-7p19m-h256.nnue, SHA-256 2dc6e834...,
# docs/runs/nnue-checkpoints/ckpt-gen2ft5-7p19m-h256.nnue), the network embedded since the
# fifteenth session, on 43be651's x86-64-v3 build: the network comes by --eval-file, so the
# search is the embedding commit's (it changes no search) and no new build is waited for.
# --hash 2 (docs/datagen.md). Seeds 2730/2731 (gen2ft3, fourteenth session) end where they
# stopped; a new network gets new seeds, so that no file mixes two networks' games.
# From 01:10 that session the lab is 0d278eb's PGO x86-64-v3 build (pgo-gen2.sh, made again
# after the second loss): the same search (no commit from 0d278eb to 43be651 changes a tree,
# and the network comes by --eval-file), about 14% less CPU a position; the file names keep
# 43be651, the build that began them.
cd /work/campaign
LAB=bin/augur-lab-0d278eb-pgo3
[ -x $LAB ] || LAB=bin/augur-lab-43be651-v3
for seed in ${SEEDS:-2732 2733}; do
  f=datagen/selfplay-43be651-gen2ft5-h2-seed$seed.bin
  pgrep -f "datagen --out $f" >/dev/null || \
    PRIO=3 setsid ./background.sh $LAB datagen --out $f --positions 30000000 \
      --threads 1 --seed $seed --hash 2 --eval nnue \
      --eval-file /work/campaign/nets/gen2ft5-7p19m-h256.nnue \
      >> logs/datagen-$seed.log 2>&1 < /dev/null &
done
