#!/bin/bash
# gen2ft13's SPRT (from 29 Nov, twenty-third session): all-b8-lr5e-5-e4 (gen2ft12's float model
# fine-tuned on the 1.19 M positions made since the third lost machine, no old data;
# gen2ft13.sh) against gen2ft12 (H1 against gen2ft11 in the same session, then embedded), on
# 703a642's build (main's search with `Se` on). [0, 5] at 10k nodes, seed 101, cap 12,000,
# PRIO=3; its games become data. Resumes from its PGN.
C=/work/campaign
V=${1:-all-b8-lr5e-5-e4}
COMMIT=703a642 GAMES=${GAMES:-12000} exec $C/net-sprt.sh gen2ft13-$V gen2ft13-$V \
  $C/nnue/gen2ft13/$V/augur.nnue gen2ft12 $C/nnue/gen2ft12/all-b8-lr5e-5-e4/augur.nnue 101 \
  "gen2ft12's float model fine-tuned (train --init, $V, --rounding best) on the 1.19 M positions made since the third lost machine"
