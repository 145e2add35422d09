#!/bin/bash
# gen2ft12's SPRT (from 29 Nov, twenty-first session): all-b8-lr5e-5-e4 (gen2ft11's float model
# fine-tuned on gen2ft11's data and what was made since; gen2ft12.sh) against gen2ft11 (embedded
# from the same session), on 703a642's PGO build (main's search with `Se` on, the default since
# 9df3354; the earlier network SPRTs played 0d278eb's, `Se` off). [0, 5] at 10k nodes, seed 100,
# cap 12,000, PRIO=3; its games become data. Resumes from its PGN.
C=/work/campaign
V=${1:-all-b8-lr5e-5-e4}
COMMIT=703a642 GAMES=${GAMES:-12000} exec $C/net-sprt.sh gen2ft12-$V gen2ft12-$V \
  $C/nnue/gen2ft12/$V/augur.nnue gen2ft11 $C/nnue/gen2ft11/all-b8-lr5e-5-e4/augur.nnue 100 \
  "gen2ft11's float model fine-tuned (train --init, $V, --rounding best) on gen2ft11's 6.49 M positions and the 1.12 M made since (7.61 M)"
