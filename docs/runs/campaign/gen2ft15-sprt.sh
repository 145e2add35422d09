#!/bin/bash
# gen2ft15's SPRT (from 1 Dec, twenty-seventh session): the run gen2ft15.sh chose (its folder's
# `chosen`) against the network it started from, gen2ft12 (embedded; gen2ft14's SPRT ended
# undecided at its cap), on 703a642's build (main's search, `Se` on). [0, 5] at 10k nodes, seed 103,
# cap 12,000, PRIO=3; its games become data. Resumes from its PGN; returns at once while the
# turn has chosen no run (before it is trained, or when no run beat its start's held-out loss).
C=/work/campaign
. $C/verdict.sh
[ -f $C/nnue/gen2ft15/chosen ] || { echo "gen2ft15: no run chosen yet"; exit 0; }
V=$(run_of gen2ft15)
BASE=gen2ft12
COMMIT=703a642 GAMES=${GAMES:-12000} exec $C/net-sprt.sh gen2ft15-$V gen2ft15-$V \
  $C/nnue/gen2ft15/$V/augur.nnue $BASE $C/nnue/$BASE/$(run_of $BASE)/augur.nnue 103 \
  "$BASE's float model fine-tuned (train --init, $V, --rounding best) on gen2ft14's SPRT games, the study's 160k games and the gen2ft12 seeds 2742/2743"
