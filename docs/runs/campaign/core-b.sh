#!/bin/bash
# Core B's queue (from 27 Nov): the Se SPRT to its decision, the MPC grids (issue 28 section 2),
# then the scaling study's remaining points. Each step resumes from its files; a finished one
# returns at once.
cd /work/campaign
./se-sprt.sh
bash grids.sh
nice -n 10 bin/augur-lab-e3809f7 scaling --engine /work/campaign/bin/augur-e3809f7 \
  --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd \
  --collect-epd /work/shared/data/positions/games-sample.epd --out scaling >> logs/scaling.log 2>&1
