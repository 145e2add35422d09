#!/bin/bash
# The campaign's datagen (from 28 Nov, fifteenth session; its autogroup at nice 3 from the
# sixteenth, background.sh): from 29 Nov (twenty-first session, when gen2ft11 passed its SPRT
# against gen2ft7) seeds 2736 and 2737 with gen2ft11 (nets/gen2ft11-6p49m-h256.nnue,
# docs/runs/nnue-checkpoints/ckpt-gen2ft11-6p49m-h256.nnue, SHA-256 b4fe614b...; embedded from
# the same session), by --eval-file on 703a642's PGO x86-64-v3 build (pgo-gen2.sh 703a642: main's
# search with `Se` on, the default since 9df3354; its plain x86-64-v3 build until the PGO one is
# made after a lost machine: the same records), --hash 2 (docs/datagen.md). Seeds 2734/2735
# (gen2ft7 on 0d278eb's PGO build, sixteenth to twenty-first sessions) and 2732/2733 (gen2ft5)
# end where they stopped; a new network or search gets new seeds, so that no file mixes two
# engines' games. The third lost machine (between the twenty-first and twenty-second sessions,
# 29 Nov) took seeds 2736/2737's files; a seed replays its games exactly, so from the
# twenty-second session the same engine goes on with seeds 2738 and 2739.
cd /work/campaign
LAB=bin/augur-lab-703a642-pgo3
[ -x $LAB ] || LAB=bin/augur-lab-703a642-v3
for seed in ${SEEDS:-2738 2739}; do
  f=datagen/selfplay-703a642-gen2ft11-h2-seed$seed.bin
  pgrep -f "datagen --out $f" >/dev/null || \
    PRIO=3 setsid ./background.sh $LAB datagen --out $f --positions 30000000 \
      --threads 1 --seed $seed --hash 2 --eval nnue \
      --eval-file /work/campaign/nets/gen2ft11-6p49m-h256.nnue \
      >> logs/datagen-$seed.log 2>&1 < /dev/null &
done
