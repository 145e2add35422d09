#!/bin/bash
# Singular extensions on today's engine: the scaling study's 10k point gave +19.3 [+7.6, +31.1]
# (e3809f7), against the H0 of their SPRT on the old branch cd3b75b. Before `Se` can be a
# default it passes its own SPRT on today's binary (another seed than the study's).
cd /work/campaign
B=/work/campaign/bin/augur-dcc08c2
ADJ="--resign-score 1000 --resign-moves 4 --draw-score 10 --draw-moves 8 --draw-after 40"
nice -n 10 bin/augur-lab-dcc08c2 match --engine name=se,cmd=$B,option.Se=true \
  --engine name=base,cmd=$B --each option.Threads=1 --each option.Hash=16 \
  --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd --seed 73 \
  --tc nodes=10000 --concurrency 1 --games 20000 --sprt 0,10 $ADJ \
  --change "singular extensions (Se) on today's engine" --commit dcc08c2 \
  --pgn sprt/se-dcc08c2.pgn >> logs/sprt-se.log 2>&1
