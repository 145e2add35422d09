#!/bin/bash
# The last hour of a session: the scaling study's core plays the timed SPRTs in order, one
# game at a time (datagen goes on at nice 19 on the other core). Each resumes from its PGN.
cd /work/campaign
# Core B's queue stops, every step of it (start.sh made it a process group of its own); each
# step resumes from its files later.
# (only if that group is still core B: a pid of an earlier session may name another process now)
if [ -f logs/core-b.pid ] && ps -o cmd= -p "$(cat logs/core-b.pid)" | grep -q core-b.sh; then
  kill -- -"$(cat logs/core-b.pid)" 2>/dev/null
fi; sleep 2
for p in $(pgrep -f "datagen --out datagen/"); do renice -n 19 -p $p >/dev/null; done
B=/work/campaign/bin/augur-dcc08c2
ADJ="--resign-score 1000 --resign-moves 4 --draw-score 10 --draw-moves 8 --draw-after 40"
OPEN=/work/shared/data/openings/UHO_4060_v4-sample10k.epd
(
./timed-clock.sh  # the clock (decided: H1 at 727 games; returns at once)
# issue 28: Sppf's value is time per node, so it is judged on the clock too
bin/augur-lab-dcc08c2 match --engine name=sppf,cmd=$B,option.Sppf=true \
  --engine name=base,cmd=$B --each option.Threads=1 --each option.Hash=16 \
  --openings $OPEN --seed 72 --tc 10+0.1 --concurrency 1 --games 20000 --sprt 0,10 $ADJ \
  --change "Sppf (MPD 160) beside futility, timed" \
  --commit dcc08c2 --pgn timed/sppf-dcc08c2.pgn >> logs/timed-sppf.log 2>&1
) > /dev/null 2>&1 &
