#!/bin/bash
# The rest of the issue-11 soak for the new clock (TimeMan on every Augur): vs Stockfish at
# UCI_Elo 2000, Chess960, Threads=2, overload (concurrency 4); margin 0, beside the campaigns.
cd /work/campaign; mkdir -p soak
A=/work/campaign/bin/augur-dcc08c2; L=bin/augur-lab-dcc08c2
T=option.TimeMan=true
$L match --engine name=augur,cmd=$A,option.Hash=16,$T \
  --engine name=stockfish-2000,cmd=/usr/games/stockfish,option.Threads=1,option.Hash=16,option.UCI_LimitStrength=true,option.UCI_Elo=2000 \
  --tc 1+0.01 --margin-ms 0 --games 500 --concurrency 2 --pgn soak/tm-sf.pgn --quiet > logs/soak-sf.log 2>&1
$L match --chess960 --engine name=augur,cmd=$A,$T --engine name=augur-classic,cmd=$A,option.Eval=classic,$T \
  --each option.Hash=16 --tc 1+0.01 --margin-ms 0 --games 200 --concurrency 2 --pgn soak/tm-c960.pgn --quiet > logs/soak-c960.log 2>&1
$L match --engine name=augur-t2,cmd=$A,$T --engine name=augur-t2-classic,cmd=$A,option.Eval=classic,$T \
  --each option.Hash=16 --each option.Threads=2 --tc 1+0.01 --margin-ms 0 --games 200 --concurrency 1 --pgn soak/tm-threads2.pgn --quiet > logs/soak-t2.log 2>&1
$L match --engine name=augur,cmd=$A,$T --engine name=augur-classic,cmd=$A,option.Eval=classic,$T \
  --each option.Hash=16 --tc 1+0.01 --margin-ms 0 --games 200 --concurrency 4 --pgn soak/tm-overload.pgn --quiet > logs/soak-over.log 2>&1
for f in tm-sf tm-c960 tm-threads2 tm-overload; do $L timing soak/$f.pgn > soak/$f-timing.txt; done
