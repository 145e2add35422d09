#!/bin/bash
# The issue-11 soak for the new clock (TimeMan on both sides): 1+0.01, the runner's margin 0
# (any move over the clock forfeits), concurrency 2 beside datagen (three busy processes on
# two cores).
cd /work/campaign; mkdir -p soak
A=/work/campaign/bin/augur-dcc08c2
bin/augur-lab-dcc08c2 match --engine name=augur,cmd=$A,option.TimeMan=true \
  --engine name=augur-classic,cmd=$A,option.Eval=classic,option.TimeMan=true \
  --each option.Hash=16 --tc 1+0.01 --margin-ms 0 --games 500 --concurrency 2 \
  --pgn soak/timeman-self-dcc08c2.pgn --quiet > logs/soak.log 2>&1
bin/augur-lab-dcc08c2 timing soak/timeman-self-dcc08c2.pgn > soak/timeman-self-dcc08c2-timing.txt
