#!/bin/bash
# gen2ft8's SPRT (from 29 Nov, sixteenth session): all-b8-lr5e-5-e4 (gen2ft7's float model
# widened to 8 output buckets and fine-tuned on gen2ft7's data and the 1.02 M positions made
# since, [train-rebucket]; gen2ft8.sh) against gen2ft7, which passed its SPRT against gen2ft5 in
# that session. [0, 5] at 10k nodes, seed 98, cap 12,000; its games become data. Resumes from
# its PGN.
C=/work/campaign
V=${1:-all-b8-lr5e-5-e4}
GAMES=${GAMES:-12000} exec $C/net-sprt.sh gen2ft8-$V gen2ft8-$V $C/nnue/gen2ft8/$V/augur.nnue \
  gen2ft7 $C/nnue/gen2ft7/all-lr5e-5-e4/augur.nnue 98 \
  "gen2ft7's float model widened to 8 output buckets by piece count and fine-tuned (train --init, $V, --rounding best) on gen2ft7's 2.49 M positions and the 1.02 M made since"
