#!/bin/bash
# gen2ft13, the thirteenth fine-tune turn (from 29 Nov, twenty-second session): the float model
# of the last network that passed its SPRT (gen2ft12's candidate if its SPRT against gen2ft11
# ends in H1, else gen2ft11's) fine-tuned on what was made since the third lost machine
# (gen2ft13-files.sh), with gen2ft9's settings (FT9): lr 0.00005, cosine, 4 epochs,
# --rounding best, 8 output buckets; a new held-out set (the loss took gen2ft6's). Nice NICE (19
# unless set).
set -e
# the verdict first: the data files cut the live files where they stand when they are made
. /work/campaign/verdict.sh
decided gen2ft12-all-b8-lr5e-5-e4 ||
  { echo "gen2ft13.sh: gen2ft12's SPRT is not decided yet; the turn starts from the winner"; exit 1; }
. /work/campaign/gen2ft13-files.sh
INIT=$C/nnue/gen2ft11/all-b8-lr5e-5-e4/best.ckpt
if passed gen2ft12-all-b8-lr5e-5-e4; then INIT=$C/nnue/gen2ft12/all-b8-lr5e-5-e4/best.ckpt; fi
echo "init $INIT" >> totals.txt
train_on all-b8-lr5e-5-e4 "$NEW13 $HELD" --init $INIT $FT9
