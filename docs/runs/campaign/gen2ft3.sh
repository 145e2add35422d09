#!/bin/bash
# The third fine-tune turn (from 28 Nov, eleventh session): gen2ft2 (embedded in a13040e) fine-
# tuned with decoupled weight decay 0.01, cosine, keep-best: on everything (gen2ft2's 4.41 M and
# NEW3) with gen2ft2's recipe (lr 0.0001, 6 epochs) and with half its rate (lr 0.00005, 4
# epochs), and on NEW3 alone (lr 0.00005, 4 epochs). The data and settings: gen2ft3-files.sh.
# Resumable: a finished training is skipped.
set -e
. /work/campaign/gen2ft3-files.sh
FT="--init $NET --schedule cosine --weight-decay 0.01"
train_on all-lr1e-4-e6 "$OLD $NEW $NEW3 $LAST" $FT --lr 0.0001 --epochs 6
train_on all-lr5e-5-e4 "$OLD $NEW $NEW3 $LAST" $FT --lr 0.00005 --epochs 4
train_on new-lr5e-5-e4 "$NEW3 $LAST" $FT --lr 0.00005 --epochs 4
