#!/bin/bash
# gen2ft7's SPRT (from 29 Nov, fifteenth session): all-lr5e-5-e4 (its kept epoch 3, held-out
# 0.011074 against gen2ft6's 0.011113) against gen2ft5, the embedded network. gen2ft6's SPRT
# against gen2ft5 was stopped at 3,258 games undecided (+7.6 ± 11.9 nElo, LLR 0.69) in its
# favour: gen2ft7 is gen2ft6's float model trained on a superset of its data, so the question
# that decides what ships is gen2ft7 against the embedded network. [0, 5] at 10k nodes, seed
# 97, cap 12,000, nice 0; its games become data. Resumes from its PGN.
C=/work/campaign
V=${1:-all-lr5e-5-e4}
GAMES=${GAMES:-12000} exec $C/net-sprt.sh gen2ft7-$V gen2ft7-$V $C/nnue/gen2ft7/$V/augur.nnue \
  gen2ft5 $C/nets/gen2ft5-7p19m-h256.nnue 97 \
  "gen2ft6's candidate fine-tuned (train --init its float model, $V, kept epoch 3, --rounding best) on its 1.53 M positions and the 0.96 M made since"
