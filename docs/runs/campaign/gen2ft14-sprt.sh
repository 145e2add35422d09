#!/bin/bash
# gen2ft14's SPRT (from 30 Nov, twenty-fourth session): all-b8-lr5e-5-e4 (gen2ft12's float model
# fine-tuned on gen2ft13's data and what was made since, the device machine's burst among it;
# gen2ft14.sh) against gen2ft12 (embedded; gen2ft13 was stopped undecided for this turn), on
# 703a642's build (main's search with `Se` on). [0, 5] at 10k nodes, seed 102, cap 12,000,
# PRIO=3; its games become data. Resumes from its PGN.
C=/work/campaign
V=${1:-all-b8-lr5e-5-e4}
COMMIT=703a642 GAMES=${GAMES:-12000} exec $C/net-sprt.sh gen2ft14-$V gen2ft14-$V \
  $C/nnue/gen2ft14/$V/augur.nnue gen2ft12 $C/nnue/gen2ft12/all-b8-lr5e-5-e4/augur.nnue 102 \
  "gen2ft12's float model fine-tuned (train --init, $V, --rounding best) on gen2ft13's data and what was made since"
