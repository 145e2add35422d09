#!/bin/bash
# Issue 27 section 3, the second gate: generation 1 (the embedded network of 7fbeb95, with the faster accumulator update) against
# the HCE (the same binary, Eval at its default) at 10+0.1, 400 games, one game at a time, the
# machine otherwise idle: datagen is stopped (SIGSTOP, so its game in flight is kept) and core
# B's queue ends (it resumes from its files); both come back when the gate ends or is stopped.
# Resumes from its PGN like every match.
cd /work/campaign
# (only if that group is still core B: a pid of an earlier session may name another process now)
if [ -f logs/core-b.pid ] && ps -o cmd= -p "$(cat logs/core-b.pid)" | grep -q core-b.sh; then
  kill -- -"$(cat logs/core-b.pid)" 2>/dev/null
fi
pkill -f gen1-proxy.sh; pkill -f "proxy/gen1-n50k"
DG=$(pgrep -f "datagen --out datagen/")
[ -n "$DG" ] && kill -STOP $DG
trap '[ -n "$DG" ] && kill -CONT $DG' EXIT
sleep 2
B=/work/campaign/bin/augur-7fbeb95
ADJ="--resign-score 1000 --resign-moves 4 --draw-score 10 --draw-moves 8 --draw-after 40"
bin/augur-lab-7fbeb95 match --engine name=nnue-gen1,cmd=$B,option.Eval=nnue \
  --engine name=hce,cmd=$B --each option.Threads=1 --each option.Hash=16 \
  --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd --seed 93 \
  --tc 10+0.1 --concurrency 1 --games 400 $ADJ \
  --pgn gate/gen1-7fbeb95-10+0.1.pgn >> logs/gate-gen1.log 2>&1
