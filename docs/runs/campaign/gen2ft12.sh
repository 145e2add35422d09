#!/bin/bash
# gen2ft12, the twelfth fine-tune turn (from 29 Nov, twenty-first session): gen2ft11's
# candidate's float model (--init its best.ckpt, epoch 4) fine-tuned on gen2ft11's data and what
# was made since (gen2ft12-files.sh), with gen2ft9's settings (FT9): lr 0.00005, cosine, 4
# epochs, --rounding best, 8 output buckets, gen2ft6's held-out set. Nice NICE (19 unless set).
set -e
. /work/campaign/gen2ft12-files.sh
INIT=$C/nnue/gen2ft11/all-b8-lr5e-5-e4/best.ckpt
train_on all-b8-lr5e-5-e4 "$OLD12 $NEW12 $HELD" --init $INIT $FT9
