#!/bin/bash
# gen2ft2's variants on the 'all' data (tenth session): a larger lr (0.0001, 6 epochs; the
# winner, kept epoch 4) and more epochs (lr 0.00005, 8). The data and settings: gen2ft2-files.sh.
set -e
. /work/campaign/gen2ft2-files.sh
FT="--init $NET --schedule cosine --weight-decay 0.01"
train_on all-lr1e-4-e6 "$OLD $NEW $LAST" $FT --lr 0.0001 --epochs 6
train_on all-lr5e-5-e8 "$OLD $NEW $LAST" $FT --lr 0.00005 --epochs 8
