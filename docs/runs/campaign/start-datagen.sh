#!/bin/bash
# The campaign's datagen (from 28 Nov, fifteenth session; its autogroup at nice 3 from the
# sixteenth, background.sh): from 2 Dec, 00:55 (twenty-ninth session, after the sixth lost
# machine took seeds 2745/2746's files, of which no turn had trained on any) seeds 2747 and
# 2748, the same engine and network; from 1 Dec, 22:00 (twenty-eighth session, after the fifth lost
# machine took seeds 2742/2743's files, whose first 153,164/150,347 positions gen2ft15 trained
# on) seeds 2745 and 2746, the same engine and network; from 1 Dec (twenty-seventh session,
# after the fourth lost machine took seeds 2740/2741's files, parts of which gen2ft14 trained
# on) seeds 2742 and 2743, the same engine and network; from 29 Nov (twenty-third session, 23:25, when gen2ft12 passed its SPRT
# against gen2ft11) seeds 2740 and 2741 with gen2ft12 (nets/gen2ft12-7p61m-h256.nnue,
# docs/runs/nnue-checkpoints/ckpt-gen2ft12-7p61m-h256.nnue, SHA-256 163434ca...; embedded from
# the same session), by --eval-file on 703a642's x86-64-v3 build (main's search with `Se` on,
# the default since 9df3354; its PGO build, pgo-gen2.sh 703a642, makes the same records and is
# used when present), --hash 2 (docs/datagen.md). Seeds 2738/2739 (gen2ft11, twenty-second and
# twenty-third sessions, after the third lost machine took seeds 2736/2737's files), 2734/2735 (gen2ft7) and
# 2732/2733 (gen2ft5) end where they stopped; a new network or search gets new seeds, so that no
# file mixes two engines' games, and a seed replays its games exactly, so none is used twice.
cd /work/campaign
LAB=bin/augur-lab-703a642-pgo3
[ -x $LAB ] || LAB=bin/augur-lab-703a642-v3
# Seed 2744 (from the twenty-seventh session) stops at 60,000 positions: the held-out set of the
# turns from gen2ft15 on, a seed of which nothing is trained on (gen2ft14's, device seed 2808,
# went with the fourth lost machine); one set for every later turn, so their losses compare.
# The fifth lost machine took its file too: a seed replays its games exactly, so it is made
# again (the same 60,019 positions, SHA-256 b65d6d81...; checked before a turn reads it).
for seed in ${SEEDS:-2747 2748 2744}; do
  f=datagen/selfplay-703a642-gen2ft12-h2-seed$seed.bin
  n=30000000; [ $seed = 2744 ] && n=60000
  pgrep -f "datagen --out $f" >/dev/null || \
    PRIO=3 setsid ./background.sh $LAB datagen --out $f --positions $n \
      --threads 1 --seed $seed --hash 2 --eval nnue \
      --eval-file /work/campaign/nets/gen2ft12-7p61m-h256.nnue \
      >> logs/datagen-$seed.log 2>&1 < /dev/null &
done
