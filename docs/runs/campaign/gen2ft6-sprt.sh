#!/bin/bash
# gen2ft6's SPRT (from 28 Nov, fourteenth session): all-lr5e-5-e4 (its epoch 3) against the best
# network so far: gen2ft5's candidate if gen2ft5's SPRT accepted H1, else gen2ft3 (the embedded
# one). [0, 5] at 10k nodes, seed 96, cap 12,000, nice 0; its games become data. start.sh runs
# it once gen2ft5's log has its closing row. Resumes from its PGN (the opponent is fixed by the
# time it starts: a resumed run reads the same gen2ft5 log).
C=/work/campaign
V=${1:-all-lr5e-5-e4}
. $C/verdict.sh
if passed gen2ft5-all-lr5e-5-e4; then
  OPP=gen2ft5 OPPNET=$C/nnue/gen2ft5/all-lr5e-5-e4/augur.nnue
else
  OPP=gen2ft3 OPPNET=$C/nets/gen2ft3-4p98m-h256.nnue
fi
GAMES=${GAMES:-12000} exec $C/net-sprt.sh gen2ft6-$V gen2ft6-$V $C/nnue/gen2ft6/$V/augur.nnue \
  $OPP $OPPNET 96 \
  "gen2ft5's candidate fine-tuned on the 1.59 M positions made since the machine's second loss (train --init of its written file, $V, kept epoch 3, --rounding best)"
