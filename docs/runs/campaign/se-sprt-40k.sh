#!/bin/bash
# The singular extensions' SPRT at 40k nodes on today's default engine (from 29 Nov, nineteenth
# session): `Se` on against off, both 0d278eb's PGO build with gen2ft7 (the embedded network;
# 0d278eb searches the same tree as main since, only faster), [0, 10] nElo as the technique
# SPRTs, the UHO sample, seed 101, cap 8,000. Why 40k: the study measured `Se` at +28.9
# [+18.2, +39.7] Elo at 40k on e3809f7 against +19.3 at 10k, and the 10k SPRT on the network
# engine (se-sprt-gen2.sh) sits near its middle; a depth-dependent technique is judged where it
# acts, and its verdict names that control. PRIO=3, beside datagen; its games become training
# data (deeper labels). Resumes from its PGN.
cd /work/campaign
B=/work/campaign/bin/augur-0d278eb-pgo3
[ -x $B ] || B=/work/campaign/bin/augur-0d278eb-v3
NET=/work/campaign/nets/gen2ft7-2p49m-h256.nnue
ADJ="--resign-score 1000 --resign-moves 4 --draw-score 10 --draw-moves 8 --draw-after 40"
bin/augur-lab-1f3fcb5 match --engine name=se,cmd=$B,option.Se=true \
  --engine name=base,cmd=$B --each option.Threads=1 --each option.Hash=16 \
  --each option.EvalFile=$NET \
  --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd --seed 101 \
  --tc nodes=40000 --concurrency 1 --games 8000 --sprt 0,10 $ADJ \
  --change "singular extensions (Se) at 40k nodes, network gen2ft7" --commit 0d278eb \
  --pgn sprt/se-40k-0d278eb.pgn >> logs/sprt-se-40k-0d278eb.log 2>&1
