#!/bin/bash
# Issue 27 section 5: the ladder at 10+0.1 with the default evaluation, as issue 10's yardstick
# was played (docs/strength.md, sessions 9 and 14): the 8-move book, Hash 16, one thread each,
# the same adjudication; two matches side by side, each `--concurrency 1` (one engine thinks
# at a time in each game, so two cores carry two games), nothing else running: core B's queue
# ends (it resumes from its files), so does core C's, and datagen ends until the
# ladder ends (start.sh starts it again). Ethereal 12 first, two halves of 100 games (seeds 11 and
# 12), then Glaurung 2.2 and Toga II 3.0 side by side, 200 games each (seed 14). Every match
# resumes from its PGN; when all are played, start.sh starts the campaign's queue again.
# Usage: ladder.sh COMMIT (bin/augur-COMMIT and bin/augur-lab-COMMIT)
cd /work/campaign
C=${1:?commit}
B=/work/campaign/bin/augur-$C; L=bin/augur-lab-$C
# core B's and core C's queues end: each leads a process group of its own (start.sh), so one
# kill of the group ends its shells, lab and engines; each resumes from its files
for pg in $(pgrep -f "core-b.sh|queue-c.sh"); do kill -- -"$pg" 2>/dev/null; done
# Datagen ends (it resumes from its file, losing at most the game in progress; start.sh starts
# it again). A SIGSTOP, as until the seventh session, did not hold: when the shell that started
# datagen exits, the kernel continues a stopped member of its orphaned process group (SIGHUP,
# then SIGCONT), and datagen ran at nice 19 beside the ladder's Glaurung and Toga games.
pkill -f "datagen --out datagen/"
sleep 2
A="name=augur,cmd=$B,option.Threads=1,option.Hash=16"
common="--openings /work/shared/data/openings/8moves_v3.epd --tc 10+0.1 --concurrency 1 \
  --resign-score 1000 --resign-moves 3 --draw-score 10 --draw-moves 8 --draw-after 40"
E="name=ethereal,cmd=/usr/games/ethereal-chess,option.Threads=1,option.Hash=16,option.Ponder=false"
$L match --engine "$A" --engine "$E" $common --seed 11 --games 100 --pgn ladder/eth-a-$C.pgn >> logs/ladder.log 2>&1 &
$L match --engine "$A" --engine "$E" $common --seed 12 --games 100 --pgn ladder/eth-b-$C.pgn >> logs/ladder.log 2>&1 &
wait
$L match --engine "$A" \
  --engine "name=glaurung,cmd=/usr/games/glaurung,option.Threads=1,option.OwnBook=false,option.Ponder=false,option.Hash=16" \
  $common --seed 14 --games 200 --pgn ladder/glaurung-$C.pgn >> logs/ladder.log 2>&1 &
$L match --engine "$A" \
  --engine "name=toga,cmd=/usr/games/toga2,option.Number of Threads=1,option.OwnBook=false,option.Ponder=false,option.Hash=16" \
  $common --seed 14 --games 200 --pgn ladder/toga-$C.pgn >> logs/ladder.log 2>&1 &
wait
touch ladder/done-$C
./start.sh > /dev/null 2>&1
