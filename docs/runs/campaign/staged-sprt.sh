#!/bin/bash
# [stagedquiets] at equal CPU time: callgrind puts the switch at 5.9-6.5% fewer instructions a
# node (augur bench at depths 8, 11, 12), so the staged side gets 10,640 nodes a move against
# the baseline's 10,000 (1/0.94); same binary 02ea32d, another seed than the other SPRTs.
cd /work/campaign
B=/work/campaign/bin/augur-02ea32d
ADJ="--resign-score 1000 --resign-moves 4 --draw-score 10 --draw-moves 8 --draw-after 40"
nice -n 10 bin/augur-lab-02ea32d match \
  --engine name=staged,cmd=$B,option.StagedQuiets=true,nodes=10640 \
  --engine name=base,cmd=$B --each option.Threads=1 --each option.Hash=16 \
  --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd --seed 75 \
  --tc nodes=10000 --concurrency 1 --games 20000 --sprt 0,10 $ADJ \
  --change "staged quiet generation (StagedQuiets), nodes compensated for its speed" --commit 02ea32d \
  --pgn sprt/stagedquiets-02ea32d.pgn >> logs/sprt-stagedquiets.log 2>&1
