#!/bin/bash
# The issue-11 soak for the clock (TimeMan on every Augur): 1+0.01, the runner's margin 0 (any
# move over the clock forfeits), beside the campaigns: self-play, Stockfish at UCI_Elo 2000,
# Chess960, Threads=2, overload (concurrency 4); then `timing` of each PGN.
cd /work/campaign; mkdir -p soak
A=/work/campaign/bin/augur-dcc08c2; L=bin/augur-lab-dcc08c2
T=option.TimeMan=true
CL="--engine name=augur-classic,cmd=$A,option.Eval=classic,$T"
M="$L match --tc 1+0.01 --margin-ms 0 --quiet"
$M --engine name=augur,cmd=$A,$T $CL --each option.Hash=16 --games 500 --concurrency 2 \
  --pgn soak/timeman-self-dcc08c2.pgn > logs/soak.log 2>&1
$M --engine name=augur,cmd=$A,option.Hash=16,$T \
  --engine name=stockfish-2000,cmd=/usr/games/stockfish,option.Threads=1,option.Hash=16,option.UCI_LimitStrength=true,option.UCI_Elo=2000 \
  --games 500 --concurrency 2 --pgn soak/tm-sf.pgn > logs/soak-sf.log 2>&1
$M --chess960 --engine name=augur,cmd=$A,$T $CL --each option.Hash=16 --games 200 --concurrency 2 \
  --pgn soak/tm-c960.pgn > logs/soak-c960.log 2>&1
$M --engine name=augur-t2,cmd=$A,$T --engine name=augur-t2-classic,cmd=$A,option.Eval=classic,$T \
  --each option.Hash=16 --each option.Threads=2 --games 200 --concurrency 1 \
  --pgn soak/tm-threads2.pgn > logs/soak-t2.log 2>&1
$M --engine name=augur,cmd=$A,$T $CL --each option.Hash=16 --games 200 --concurrency 4 \
  --pgn soak/tm-overload.pgn > logs/soak-over.log 2>&1
for f in timeman-self-dcc08c2 tm-sf tm-c960 tm-threads2 tm-overload; do
  $L timing soak/$f.pgn > soak/$f-timing.txt
done
