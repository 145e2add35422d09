#!/bin/bash
# gen2ft3 from gen2ft2's float model (eleventh session, 28 Nov): the all-lr5e-5-e4 run of
# gen2ft3q.sh (the same data, seed and settings) started from gen2ft2's unrounded float model
# (nnue/gen2ft2/q2-all-lr1e-4-e6/best.ckpt, written by gen2ft2q.sh's second run) instead of its
# file, by b188d49's trainer, as f-all-lr5e-5-e4 in $C/nnue/gen2ft3. Resumable.
set -e
LAB=/work/campaign/bin/augur-lab-b188d49
. /work/campaign/gen2ft3-files.sh
INIT=$C/nnue/gen2ft2/q2-all-lr1e-4-e6/best.ckpt
train_on f-all-lr5e-5-e4 "$OLD $NEW $NEW3 $LAST" --init $INIT --schedule cosine \
  --weight-decay 0.01 --lr 0.00005 --epochs 4
