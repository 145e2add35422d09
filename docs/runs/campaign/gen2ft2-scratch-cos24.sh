#!/bin/bash
# From scratch on every file since the lost machine (tenth session, a planning measurement):
# generation 2's recipe (H 256, lr 0.004, weight decay 0.3, 16 epochs, mirror, keep-best) on
# 5.8 M positions, the same 60,000 held out (device seed 2804's end) and validation K 132.2 as
# the gen2ft2 runs, so its loss reads beside theirs (gen2ft2: 0.011334).
set -e
C=/work/campaign; cd $C/nnue/gen2ft2
D=$C/datagen/device; V=$C/datagen/converted
FILES="/work/shared/data/datagen/selfplay-88857b3-seed2611.bin /work/shared/data/datagen/selfplay-88857b3-seed2612.bin
  $V/scaling-e3809f7-mpc-n10000.bin $V/timed-gen2-3d5cd0d.bin
  $V/scaling-e3809f7-calibration-n40000.bin $V/hash-0d278eb-gen2-n5000.bin
  $C/datagen/selfplay-3d5cd0d-gen2-seed2720.bin $C/datagen/selfplay-3d5cd0d-gen2-seed2721.bin
  $C/datagen/selfplay-0d278eb-gen2-h2-seed2722.bin $C/datagen/selfplay-0d278eb-gen2-h2-seed2723.bin
  $V/sprt-3d5cd0d-margins-gen2-n10000.bin
  $V/screen-0d278eb-ft-lr5e-5-wd0.01-vs-gen2.bin $V/screen-0d278eb-ft-lr5e-5-wd0.01-k145-vs-gen2.bin
  $V/sprt-0d278eb-gen2ft1-vs-gen2-n10000.bin
  $V/screen-0d278eb-gen2ft2-new-vs-gen2ft1.bin $V/screen-0d278eb-gen2ft2-all-vs-gen2ft1.bin
  $V/sprt-0d278eb-gen2ft2-vs-gen2ft1-n10000.bin
  $C/datagen/selfplay-0d278eb-gen2ft1-h2-seed2724.bin $C/datagen/selfplay-0d278eb-gen2ft1-h2-seed2725.bin
  $D/selfplay-0d278eb-gen2ft1-h2-seed2801.bin $D/selfplay-0d278eb-gen2ft1-h2-seed2802.bin
  $D/selfplay-0d278eb-gen2ft1-h2-seed2803.bin $D/selfplay-0d278eb-gen2ft1-h2-seed2804.bin"
TOTAL=$(( $(cat $FILES | wc -c) / 32 ))
VAL=$(python3 -c "print(60000/$TOTAL)")
echo "scratch-cos24 total $TOTAL validation $VAL" >> totals.txt
[ -f scratch-h256-cos24/augur.nnue ] || nice -n 19 $C/bin/augur-lab-3d5cd0d-v3 train $FILES --validation $VAL \
  --validation-k 132.2 --hidden 256 --mirror --keep-best --lr 0.004 --weight-decay 0.3 --epochs 24 --schedule cosine \
  --batch 4096 --threads 1 --quiet --out scratch-h256-cos24 > scratch-h256-cos24.log 2>&1
