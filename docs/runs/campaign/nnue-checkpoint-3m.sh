#!/bin/bash
# The checkpoint of 27 November: the 1.91M recipe on everything so far (the converted match
# files, seed 2701, seed 2702 (finished at 1,567,295), seeds 2612 and 2611 last: the held-out
# set is the same 26,489 positions of seed 2611). Then H=64 and H=128 against the HCE at 10k
# nodes, 400 games, seed 2.
set -e
cd /work/campaign/nnue/ckpt-3m
C=/work/campaign; S=/work/shared/data/datagen
FILES="$C/converted/interim-88857b3-seed004-n10000.bin $C/converted/scaling-e3809f7-calibration-n10000.bin
  $C/converted/scaling-e3809f7-seed004-n10000.bin $C/converted/scaling-e3809f7-se-n10000.bin
  $C/converted/scaling-e3809f7-probcut-n10000.bin $C/converted/sprt-02ea32d-stagedquiets-n10000.bin
  $C/datagen/selfplay-88857b3-seed2701.bin $C/datagen/selfplay-e3809f7-seed2702.bin
  $S/selfplay-88857b3-seed2612.bin $S/selfplay-88857b3-seed2611.bin"
TOTAL=$(( $(cat $FILES | wc -c) / 32 ))
VAL=$(python3 -c "print(26489/$TOTAL)")
echo "total $TOTAL validation $VAL" | tee totals.txt
B=$C/bin/augur-dcc08c2
for H in 64 128; do
  [ -f v-h$H/augur.nnue ] || nice -n 19 $C/bin/augur-lab-dcc08c2 train $FILES --validation $VAL \
    --validation-k 156.8 --hidden $H --mirror --keep-best --lr 0.004 --weight-decay 0.3 --epochs 16 \
    --batch 4096 --threads 1 --quiet --out v-h$H > v-h$H.log 2>&1
done
for H in 64 128; do
  nice -n 19 $C/bin/augur-lab-dcc08c2 match \
    --engine name=ckpt3m-h$H,cmd=$B,option.Eval=nnue,option.EvalFile=$PWD/v-h$H/augur.nnue \
    --engine name=hce,cmd=$B --each option.Threads=1 --each option.Hash=16 \
    --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd \
    --tc nodes=10000 --concurrency 1 --games 400 --seed 2 --pgn h$H-vs-hce.pgn > h$H-vs-hce.txt 2>&1
done
