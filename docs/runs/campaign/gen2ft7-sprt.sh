#!/bin/bash
# gen2ft7's SPRT (from 28 Nov, fifteenth session): all-lr5e-5-e4 (its kept epoch 3, held-out
# 0.011074 against gen2ft6's 0.011113) against the best network so far: gen2ft6's candidate if
# gen2ft6's SPRT accepted H1, else gen2ft5 (the embedded one). [0, 5] at 10k nodes, seed 97,
# cap 12,000, nice 0; its games become data. start.sh runs it once gen2ft6's log has its
# closing row. Resumes from its PGN (the opponent is fixed by the time it starts).
C=/work/campaign
V=${1:-all-lr5e-5-e4}
if grep -q "H1 accepted" $C/logs/sprt-gen2ft6-all-lr5e-5-e4.log 2>/dev/null; then
  OPP=gen2ft6 OPPNET=$C/nnue/gen2ft6/all-lr5e-5-e4/augur.nnue
else
  OPP=gen2ft5 OPPNET=$C/nets/gen2ft5-7p19m-h256.nnue
fi
GAMES=${GAMES:-12000} exec $C/net-sprt.sh gen2ft7-$V gen2ft7-$V $C/nnue/gen2ft7/$V/augur.nnue \
  $OPP $OPPNET 97 \
  "gen2ft6's candidate fine-tuned (train --init its float model, $V, kept epoch 3, --rounding best) on its 1.53 M positions and the 1.02 M made since"
