#!/bin/bash
# Issue 27 section 4, the clock's timed SPRT (resumed from its PGN: TimeMan against the old
# plan, the same binary dcc08c2 on both sides, 10+0.1, one game at a time, seed 71) at nice 0
# on one core, while every fixed-node job (core B's queue at nice 10, trainings and matches at
# nice 10, datagen at nice 19) shares the other: the scheduler gives the nice-0 game a core of
# its own, and whatever the others take from it they take from both sides alike.
cd /work/campaign
B=/work/campaign/bin/augur-dcc08c2
ADJ="--resign-score 1000 --resign-moves 4 --draw-score 10 --draw-moves 8 --draw-after 40"
OPEN=/work/shared/data/openings/UHO_4060_v4-sample10k.epd
bin/augur-lab-dcc08c2 match --engine name=timeman,cmd=$B,option.TimeMan=true \
  --engine name=base,cmd=$B,option.TimeMan=false --each option.Threads=1 --each option.Hash=16 \
  --openings $OPEN --seed 71 --tc 10+0.1 --concurrency 1 --games 20000 --sprt 0,10 $ADJ \
  --change "clock: TimeMan (horizon 24, increment 150%, trend scaling) vs the old plan" \
  --commit dcc08c2 --pgn timed/timeman-dcc08c2.pgn >> logs/timed-timeman.log 2>&1
