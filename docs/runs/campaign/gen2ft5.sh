#!/bin/bash
# The fifth fine-tune turn (from 28 Nov, thirteenth session): gen2ft4's candidate fine-tuned from
# its float model (train --init of its best.ckpt, epoch 2) on everything (gen2ft4's 6.19 M and
# NEW5) with gen2ft3's and gen2ft4's recipe (lr 0.00005, 4 epochs), each epoch written with the
# better of the two roundings on the held-out set (`--rounding best`, dd751ce's trainer), kept by
# the written loss. The data: gen2ft5-files.sh. Resumable: a finished training is skipped.
# NICE (default 19) sets the training's priority.
set -e
LAB=/work/campaign/bin/augur-lab-dd751ce
. /work/campaign/gen2ft5-files.sh
FT="--init $INIT --schedule cosine --weight-decay 0.01 --rounding best"
train_on all-lr5e-5-e4 "$OLD $NEW $NEW3 $NEW4 $NEW5 $LAST" $FT --lr 0.00005 --epochs 4
