#!/bin/bash
# gen2ft3's turn again with the bias-corrected trainer (eleventh session, 28 Nov): the same three
# runs as gen2ft3.sh (the same data, seeds and settings, so the same float models), written by
# e26b647's trainer, whose networks have their output bias corrected for the rounding
# ([train-qcal]) and whose --keep-best chooses by the written network's validation loss.
# In $C/nnue/gen2ft3 as q-NAME; resumable: a finished training is skipped.
set -e
LAB=/work/campaign/bin/augur-lab-e26b647
. /work/campaign/gen2ft3-files.sh
FT="--init $NET --schedule cosine --weight-decay 0.01"
train_on q-all-lr1e-4-e6 "$OLD $NEW $NEW3 $LAST" $FT --lr 0.0001 --epochs 6
train_on q-all-lr5e-5-e4 "$OLD $NEW $NEW3 $LAST" $FT --lr 0.00005 --epochs 4
train_on q-new-lr5e-5-e4 "$NEW3 $LAST" $FT --lr 0.00005 --epochs 4
