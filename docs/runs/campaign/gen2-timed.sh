#!/bin/bash
# Issue 27 section 1: generation 2's H = 256 costs more a node than generation 1's H = 128, so
# besides the fixed-node SPRT (gen2-sprt.sh) it is judged on the clock: SPRT [0, 10] at 10+0.1
# (the clock's bounds; the first run used [0, 5]), one game at a time at nice 0 beside the
# niced fixed-node jobs (timed-clock.sh's arrangement),
# both sides with TimeMan (the default). Resumes from its PGN. The first run (21097c0, seed 84)
# was lost with the machine at 104 games (+57.1 +- 66.8 nElo); this one starts again on
# 3d5cd0d's x86-64-v3 build with seed 85.
cd /work/campaign
B=/work/campaign/bin/augur-3d5cd0d-v3
NET=/work/campaign/nets/gen2-6p99m-h256.nnue
ADJ="--resign-score 1000 --resign-moves 4 --draw-score 10 --draw-moves 8 --draw-after 40"
bin/augur-lab-3d5cd0d-v3 match \
  --engine name=nnue-gen2-h256,cmd=$B,option.EvalFile=$NET \
  --engine name=gen1,cmd=$B --each option.Threads=1 --each option.Hash=16 --each option.TimeMan=true \
  --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd --seed 85 \
  --tc 10+0.1 --concurrency 1 --games 20000 --sprt 0,10 $ADJ \
  --change "generation 2 (6.99 M positions, H = 256) against generation 1, timed" --commit 3d5cd0d \
  --pgn timed/nnue-gen2-3d5cd0d.pgn >> logs/timed-gen2.log 2>&1
