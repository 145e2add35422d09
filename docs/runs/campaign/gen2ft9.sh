#!/bin/bash
# gen2ft9, the ninth fine-tune turn (from 29 Nov, seventeenth session): gen2ft8's 8-bucket
# candidate's float model (--init its best.ckpt; the candidate whose SPRT against gen2ft7 is
# being played) fine-tuned on gen2ft8's data and what was made since (gen2ft9-files.sh), lr
# 0.00005, cosine, 4 epochs, --rounding best, 8 output buckets, the held-out set of gen2ft6 as
# every turn since. Trained while gen2ft8's SPRT is undecided, as gen2ft8 was during gen2ft7's:
# its SPRT follows gen2ft8's and plays against whichever network is then the best. Usage:
# gen2ft9.sh (GEN2FT9_LAB=<commit> names another lab; e285be7's unless set). Nice NICE (19
# unless set).
set -e
. /work/campaign/gen2ft9-files.sh
INIT=$C/nnue/gen2ft8/all-b8-lr5e-5-e4/best.ckpt
train_on all-b8-lr5e-5-e4 "$OLD9 $NEW9 $HELD" --init $INIT $FT9
