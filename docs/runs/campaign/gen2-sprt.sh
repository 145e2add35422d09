#!/bin/bash
# Issue 27 section 1: generation 2 (the 6.99 M checkpoint's H = 256, nnue-gen2-turn2.sh: +60.5 over 400 games)
# against generation 1 (the embedded network of 21097c0, the default) in an SPRT [0, 5] at
# 10,000 nodes, another seed than the checkpoint's match. It plays on core A in datagen's place
# (datagen stopped with SIGSTOP, its game in flight kept): its games are the network engine's
# self-play at twice datagen's nodes and join the data through `augur-lab convert`.
# Resumes from its PGN.
cd /work/campaign
B=/work/campaign/bin/augur-21097c0
NET=/work/campaign/nnue/gen2/v-h256/augur.nnue
ADJ="--resign-score 1000 --resign-moves 4 --draw-score 10 --draw-moves 8 --draw-after 40"
DG=$(pgrep -f "datagen --out datagen/")
[ -n "$DG" ] && kill -STOP $DG
trap '[ -n "$DG" ] && kill -CONT $DG' EXIT
nice -n 10 bin/augur-lab-21097c0 match \
  --engine name=nnue-gen2-h256,cmd=$B,option.EvalFile=$NET \
  --engine name=gen1,cmd=$B --each option.Threads=1 --each option.Hash=16 \
  --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd --seed 82 \
  --tc nodes=10000 --concurrency 1 --games 20000 --sprt 0,5 $ADJ \
  --change "generation 2 (6.99 M positions, H = 256) against generation 1" --commit 21097c0 \
  --pgn sprt/nnue-gen2-21097c0.pgn >> logs/sprt-nnue-gen2.log 2>&1
