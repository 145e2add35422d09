#!/bin/bash
# gen2ft16's SPRT (from 1 Dec, twenty-eighth session): the run gen2ft16.sh chose (its folder's
# `chosen`) against the network it started from (gen2ft15 if gen2ft15's SPRT passed, else
# gen2ft12: verdict.sh's turn_winner, as the turn's start), on 703a642's build (main's search, `Se` on). [0, 5] at 10k
# nodes, seed 104, cap 12,000, PRIO=3; its games become data. Resumes from its PGN; returns at
# once while the turn has chosen no run.
C=/work/campaign
. $C/verdict.sh
[ -f $C/nnue/gen2ft16/chosen ] || { echo "gen2ft16: no run chosen yet"; exit 0; }
V=$(run_of gen2ft16)
BASE=$(turn_winner gen2ft15 gen2ft12) || exit 1
COMMIT=703a642 GAMES=${GAMES:-12000} exec $C/net-sprt.sh gen2ft16-$V gen2ft16-$V \
  $C/nnue/gen2ft16/$V/augur.nnue $BASE $C/nnue/$BASE/$(run_of $BASE)/augur.nnue 104 \
  "$BASE's float model fine-tuned (train --init, $V, --rounding best) on gen2ft15's SPRT games, the study's 160k games and the gen2ft12 seeds 2747/2748"
