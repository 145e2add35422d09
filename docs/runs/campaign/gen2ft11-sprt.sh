#!/bin/bash
# gen2ft11's SPRT (from 29 Nov, twentieth session; it takes the place of gen2ft9's, which was
# queued behind gen2ft8's and never began): all-b8-lr5e-5-e4 (gen2ft10's float model fine-tuned
# on gen2ft10's data and what was made since; gen2ft11.sh), the lowest held-out loss of the
# series (0.010973 against gen2ft9's 0.010985), against the best network when gen2ft8's SPRT
# has ended: gen2ft8's candidate if that accepted H1, else gen2ft7 (embedded from the
# seventeenth session). Started only once gen2ft8's log has its closing row (start.sh's
# net_sprt; within a session `after-sprt.sh gen2ft8-all-b8-lr5e-5-e4 ./gen2ft11-sprt.sh`), so
# that two network SPRTs never split the data's share of the machine. [0, 5] at 10k nodes,
# seed 99 (gen2ft9's, unused), cap 12,000; its games become data. Resumes from its PGN (the
# opponent is read from gen2ft8's log, so it stays the same).
C=/work/campaign
V=${1:-all-b8-lr5e-5-e4}
G8=$C/logs/sprt-gen2ft8-all-b8-lr5e-5-e4.log
grep -q "Row for docs/strength.md" $G8 || { echo "gen2ft8's SPRT has not ended"; exit 1; }
if grep -q "H1 accepted" $G8; then
  BASE=gen2ft8; BASENET=$C/nnue/gen2ft8/all-b8-lr5e-5-e4/augur.nnue
else
  BASE=gen2ft7; BASENET=$C/nnue/gen2ft7/all-lr5e-5-e4/augur.nnue
fi
GAMES=${GAMES:-12000} exec $C/net-sprt.sh gen2ft11-$V gen2ft11-$V $C/nnue/gen2ft11/$V/augur.nnue \
  $BASE $BASENET 99 \
  "gen2ft10's 8-bucket float model fine-tuned (train --init, $V, kept epoch 4, --rounding best) on gen2ft10's 5.34 M positions and the 1.15 M made since (6.49 M)"
