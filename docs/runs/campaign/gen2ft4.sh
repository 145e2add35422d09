#!/bin/bash
# The fourth fine-tune turn (from 28 Nov, twelfth session): gen2ft3 fine-tuned from its float
# model (train --init of the checkpoint, b188d49's bias-corrected trainer, keep-best by the
# written network's loss) on everything (gen2ft3's 4.98 M and NEW4) with gen2ft3's recipe (lr
# 0.00005, 4 epochs) and with gen2ft2's (lr 0.0001, 6 epochs), and on NEW4 alone (lr 0.00005, 4
# epochs). The data and settings: gen2ft4-files.sh. Resumable: a finished training is skipped.
set -e
LAB=/work/campaign/bin/augur-lab-b188d49
. /work/campaign/gen2ft4-files.sh
FT="--init $INIT --schedule cosine --weight-decay 0.01"
train_on all-lr5e-5-e4 "$OLD $NEW $NEW3 $NEW4 $LAST" $FT --lr 0.00005 --epochs 4
train_on all-lr1e-4-e6 "$OLD $NEW $NEW3 $NEW4 $LAST" $FT --lr 0.0001 --epochs 6
train_on new-lr5e-5-e4 "$NEW4 $LAST" $FT --lr 0.00005 --epochs 4
