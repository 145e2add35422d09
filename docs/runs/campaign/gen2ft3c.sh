#!/bin/bash
# gen2ft3 written again with the compensated rounding (twelfth session, 28 Nov): its float model
# (the run's checkpoint.ckpt) through one epoch at lr 0 (AdamW moves nothing at lr 0, weight
# decay included), so the only change is how the file is rounded (`--rounding compensated`,
# e722813's trainer; the calibration sample is the training positions' as in every run). On
# gen2ft3's data and held-out set (gen2ft3-files.sh). The file, against gen2ft3 as shipped
# (bias-corrected), is the match that decides --rounding's default. In $C/nnue/gen2ft3 as c-NAME.
set -e
LAB=/work/campaign/bin/augur-lab-e722813
. /work/campaign/gen2ft3-files.sh
train_on c-all-lr5e-5-e4 "$OLD $NEW $NEW3 $LAST" --init $C/nnue/gen2ft3/q-all-lr5e-5-e4/checkpoint.ckpt \
  --lr 0 --epochs 1 --rounding compensated
