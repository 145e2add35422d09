#!/bin/bash
# Core B, 27 Nov: when the scaling study's ProbCut point at 10k is recorded, pause the study,
# convert that point's games, then the staged-quiets SPRT (node-compensated) and the Se SPRT;
# the study resumes after them (start.sh's command).
cd /work/campaign
until grep -q "^probcut,10000," scaling/scaling.csv; do sleep 20; done
pkill -f "augur-lab-e3809f7 scaling"; sleep 2
bin/augur-lab-02ea32d convert scaling/probcut/nodes-10000.pgn \
  --out converted/scaling-e3809f7-probcut-n10000.bin > logs/convert-probcut.log 2>&1
./staged-sprt.sh
./se-sprt.sh
nohup nice -n 10 bin/augur-lab-e3809f7 scaling --engine /work/campaign/bin/augur-e3809f7 \
  --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd \
  --collect-epd /work/shared/data/positions/games-sample.epd --out scaling >> logs/scaling.log 2>&1 &
