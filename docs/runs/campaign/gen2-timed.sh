#!/bin/bash
# Issue 27 section 1: generation 2's H = 256 costs more a node than generation 1's H = 128, so
# besides the fixed-node SPRT (gen2-sprt.sh) it is judged on the clock: SPRT [0, 5] at 10+0.1,
# one game at a time at nice 0 beside the niced fixed-node jobs (timed-clock.sh's arrangement),
# both sides with the clock of the SPRT that passed (TimeMan=true). Resumes from its PGN.
cd /work/campaign
B=/work/campaign/bin/augur-21097c0
NET=/work/campaign/nnue/gen2/v-h256/augur.nnue
ADJ="--resign-score 1000 --resign-moves 4 --draw-score 10 --draw-moves 8 --draw-after 40"
bin/augur-lab-21097c0 match \
  --engine name=nnue-gen2-h256,cmd=$B,option.EvalFile=$NET \
  --engine name=gen1,cmd=$B --each option.Threads=1 --each option.Hash=16 --each option.TimeMan=true \
  --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd --seed 84 \
  --tc 10+0.1 --concurrency 1 --games 20000 --sprt 0,5 $ADJ \
  --change "generation 2 (6.99 M positions, H = 256) against generation 1, timed" --commit 21097c0 \
  --pgn timed/nnue-gen2-21097c0.pgn >> logs/timed-gen2.log 2>&1
