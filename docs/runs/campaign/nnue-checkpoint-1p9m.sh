#!/bin/bash
# The checkpoint at 1.91M positions: H=64 and 128 with the 1.41M checkpoint's settings, then
# each against the HCE at 10k nodes (200 games, seed 2). The files in order, the seed-2611
# tail last: its last 26,489 positions are the held-out set (26,489 / 1,909,158).
cd /work/campaign/nnue/gen-2m
C=/work/campaign; S=/work/shared/data/datagen
[ -f snap-2702-800k.bin ] || head -c $((800000*32)) $C/datagen/selfplay-e3809f7-seed2702.bin > snap-2702-800k.bin
FILES="$C/converted/interim-88857b3-seed004-n10000.bin $C/converted/scaling-e3809f7-calibration-n10000.bin
  $C/converted/scaling-e3809f7-seed004-n10000.bin $C/converted/scaling-e3809f7-se-n10000.bin
  $C/datagen/selfplay-88857b3-seed2701.bin snap-2702-800k.bin
  $S/selfplay-88857b3-seed2612.bin $S/selfplay-88857b3-seed2611.bin"
B=$C/bin/augur-dcc08c2
for H in 64 128; do
  nice -n 19 $C/bin/augur-lab-dcc08c2 train $FILES --validation 0.013874702879489283 \
    --validation-k 156.8 --hidden $H --mirror --keep-best --lr 0.004 --weight-decay 0.3 --epochs 16 \
    --batch 4096 --threads 1 --quiet --out v-h$H > v-h$H.log 2>&1
  nice -n 19 $C/bin/augur-lab-dcc08c2 match \
    --engine name=gen2m-h$H,cmd=$B,option.Eval=nnue,option.EvalFile=$PWD/v-h$H/augur.nnue \
    --engine name=hce,cmd=$B --each option.Threads=1 --each option.Hash=16 \
    --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd \
    --tc nodes=10000 --concurrency 1 --games 200 --seed 2 --pgn h$H-vs-hce.pgn > h$H-vs-hce.txt 2>&1
done
