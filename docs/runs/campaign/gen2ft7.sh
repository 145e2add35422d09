#!/bin/bash
# gen2ft7, the seventh fine-tune turn (from 28 Nov, fifteenth session): gen2ft6's candidate's
# float model (--init its best.ckpt, epoch 3, the kept one) fine-tuned on the data made since
# gen2ft6's cut (new-*) and on that with gen2ft6's data again (all-*), lr 0.00005, cosine, 4
# epochs, --rounding best, the held-out set of gen2ft6 (gen2ft7-files.sh). Nice NICE (19 unless
# set). The turn's SPRT (against the embedded network) follows.
set -e
. /work/campaign/gen2ft7-files.sh
INIT=$C/nnue/gen2ft6/all-lr5e-5-e4/best.ckpt
train_on new-lr5e-5-e4 "$NEW7 $HELD" --init $INIT --schedule cosine --weight-decay 0.01 \
  --rounding best --lr 0.00005 --epochs 4
train_on all-lr5e-5-e4 "$OLD7 $NEW7 $HELD" --init $INIT --schedule cosine --weight-decay 0.01 \
  --rounding best --lr 0.00005 --epochs 4
