#!/bin/bash
# gen2ft10, the tenth fine-tune turn (from 29 Nov, eighteenth session): gen2ft9's candidate's
# float model (--init its best.ckpt, epoch 3) fine-tuned on gen2ft9's data and what was made
# since (gen2ft10-files.sh), with gen2ft9's settings: lr 0.00005, cosine, 4 epochs, --rounding
# best, 8 output buckets, gen2ft6's held-out set. gen2ft9's SPRT had not begun (it waits for
# gen2ft8's), so gen2ft10's candidate, which has seen 0.9 M more positions, can take its place
# in the queue if its held-out loss is lower. Nice NICE (19 unless set).
set -e
. /work/campaign/gen2ft10-files.sh
INIT=$C/nnue/gen2ft9/all-b8-lr5e-5-e4/best.ckpt
train_on all-b8-lr5e-5-e4 "$OLD10 $NEW10 $HELD" --init $INIT $FT9
