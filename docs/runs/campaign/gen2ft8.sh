#!/bin/bash
# gen2ft8, the eighth fine-tune turn (from 29 Nov, sixteenth session): gen2ft7's candidate's
# float model (--init its best.ckpt, epoch 3, the kept one) fine-tuned on gen2ft7's data and
# what was made since (gen2ft8-files.sh), lr 0.00005, cosine, 4 epochs, --rounding best, the
# held-out set of gen2ft6 as every turn since; once with one output (all-b1-*) and once
# widened to 8 output buckets by piece count (all-b8-*, [train-rebucket]: each bucket starts
# as gen2ft7's output). Usage: GEN2FT8_LAB=<commit> gen2ft8.sh (bin/augur-lab-<commit>, a
# lab with [train-rebucket]). Nice NICE (19 unless set).
set -e
. /work/campaign/gen2ft8-files.sh
INIT=$C/nnue/gen2ft7/all-lr5e-5-e4/best.ckpt
for b in 1 8; do
  train_on all-b$b-lr5e-5-e4 "$OLD8 $NEW8 $HELD" --init $INIT --output-buckets $b \
    --schedule cosine --weight-decay 0.01 --rounding best --lr 0.00005 --epochs 4
done
