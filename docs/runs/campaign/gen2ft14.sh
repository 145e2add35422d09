#!/bin/bash
# gen2ft14, the fourteenth fine-tune turn (from 30 Nov, twenty-fourth session): the float model
# of the last network that passed its SPRT (gen2ft13's if its SPRT against gen2ft12 ended in
# H1, else gen2ft12's) fine-tuned on gen2ft13's data and what was made since
# (gen2ft14-files.sh), with FT9 (lr 0.00005, cosine, 4 epochs, --rounding best, 8 output
# buckets); held out: 60,000 positions of a seed nothing is trained on. Nice NICE (19 unless set).
set -e
. /work/campaign/verdict.sh
INIT=$(turn_init gen2ft13 gen2ft12)
. /work/campaign/gen2ft14-files.sh
echo "init $INIT" >> totals.txt
train_on all-b8-lr5e-5-e4 "$OLD14 $NEW14 $HELD" --init $INIT $FT9
