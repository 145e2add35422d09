#!/bin/bash
# gen2ft11's SPRT (from 29 Nov, twentieth session; it takes the place of gen2ft9's, which was
# queued behind gen2ft8's and never began): all-b8-lr5e-5-e4 (gen2ft10's float model fine-tuned
# on gen2ft10's data and what was made since; gen2ft11.sh), the lowest held-out loss of the
# series (0.010973 against gen2ft9's 0.010985), against gen2ft7 (embedded from the seventeenth
# session): gen2ft8's SPRT, which would have given it gen2ft8's candidate as the opponent had
# it passed, ended undecided at its cap at 14:34, before this one began. start.sh's net_sprt
# starts it once gen2ft8's log has its closing row, so that two network SPRTs never split the
# data's share of the machine. [0, 5] at 10k nodes, seed 99 (gen2ft9's, unused), cap 12,000;
# its games become data. Resumes from its PGN.
C=/work/campaign
V=${1:-all-b8-lr5e-5-e4}
GAMES=${GAMES:-12000} exec $C/net-sprt.sh gen2ft11-$V gen2ft11-$V $C/nnue/gen2ft11/$V/augur.nnue \
  gen2ft7 $C/nnue/gen2ft7/all-lr5e-5-e4/augur.nnue 99 \
  "gen2ft10's 8-bucket float model fine-tuned (train --init, $V, kept epoch 4, --rounding best) on gen2ft10's 5.34 M positions and the 1.15 M made since (6.49 M)"
