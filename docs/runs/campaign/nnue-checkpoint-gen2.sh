#!/bin/bash
# Generation 2's checkpoint (prepared 27 Nov, third session; for when the data passes ~8 M): every
# file of the campaign so far, seed 2708 as a snapshot cut at its last journalled game (datagen
# keeps writing the live file), seeds 2612 and 2611 last so that the held-out set is the same
# 26,489 positions of seed 2611 as every checkpoint before. H = 128 and 256 (the sweep repeated
# at each generation), the 4.03 M recipe; then each against generation 1 (the default, embedded
# in 21097c0) at 10k nodes, 400 games, seed 2. Resumable: a finished step is skipped.
set -e
. /work/campaign/gen2-files.sh
B=$C/bin/augur-21097c0
for H in 128 256; do
  [ -f v-h$H/augur.nnue ] || nice -n 19 $C/bin/augur-lab-21097c0 train $FILES --validation $VAL \
    --validation-k 156.8 --hidden $H --mirror --keep-best --lr 0.004 --weight-decay 0.3 --epochs 16 \
    --batch 4096 --threads 1 --quiet --out v-h$H > v-h$H.log 2>&1
  nice -n 19 $C/bin/augur-lab-21097c0 match \
    --engine name=gen2-h$H,cmd=$B,option.EvalFile=$PWD/v-h$H/augur.nnue \
    --engine name=gen1,cmd=$B --each option.Threads=1 --each option.Hash=16 \
    --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd \
    --tc nodes=10000 --concurrency 1 --games 400 --seed 2 --pgn h$H-vs-gen1.pgn > h$H-vs-gen1.txt 2>&1
done
