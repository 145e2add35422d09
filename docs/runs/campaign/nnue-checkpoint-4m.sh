#!/bin/bash
# The checkpoint of 27 November, morning: the 2.96 M set plus seed 2703's first 276,677
# positions (a snapshot cut at a journalled game) and the device machine's burst (seeds
# 2704-2706, 800,417 positions, 16 threads); seeds 2612 and 2611 last: the held-out set is the
# same 26,489 positions of seed 2611. H = 128 and 256, then each against the HCE at 10k nodes,
# 400 games, seed 2, on today's engine (4dce66a).
set -e
cd /work/campaign/nnue/ckpt-4m
C=/work/campaign; S=/work/shared/data/datagen
FILES="$C/converted/interim-88857b3-seed004-n10000.bin $C/converted/scaling-e3809f7-calibration-n10000.bin
  $C/converted/scaling-e3809f7-seed004-n10000.bin $C/converted/scaling-e3809f7-se-n10000.bin
  $C/converted/scaling-e3809f7-probcut-n10000.bin $C/converted/sprt-02ea32d-stagedquiets-n10000.bin
  $C/datagen/selfplay-88857b3-seed2701.bin $C/datagen/selfplay-e3809f7-seed2702.bin
  $C/nnue/snap-2703-a.bin $C/datagen/device/selfplay-4dce66a-seed2704.bin
  $C/datagen/device/selfplay-4dce66a-seed2705.bin $C/datagen/device/selfplay-4dce66a-seed2706.bin
  $S/selfplay-88857b3-seed2612.bin $S/selfplay-88857b3-seed2611.bin"
TOTAL=$(( $(cat $FILES | wc -c) / 32 ))
VAL=$(python3 -c "print(26489/$TOTAL)")
echo "total $TOTAL validation $VAL" | tee totals.txt
B=$C/bin/augur-4dce66a
for H in 128 256; do
  [ -f v-h$H/augur.nnue ] || nice -n 19 $C/bin/augur-lab-dcc08c2 train $FILES --validation $VAL \
    --validation-k 156.8 --hidden $H --mirror --keep-best --lr 0.004 --weight-decay 0.3 --epochs 16 \
    --batch 4096 --threads 1 --quiet --out v-h$H > v-h$H.log 2>&1
  nice -n 19 $C/bin/augur-lab-4dce66a match \
    --engine name=ckpt4m-h$H,cmd=$B,option.Eval=nnue,option.EvalFile=$PWD/v-h$H/augur.nnue \
    --engine name=hce,cmd=$B --each option.Threads=1 --each option.Hash=16 \
    --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd \
    --tc nodes=10000 --concurrency 1 --games 400 --seed 2 --pgn h$H-vs-hce.pgn > h$H-vs-hce.txt 2>&1
done
