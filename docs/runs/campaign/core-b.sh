#!/bin/bash
# Core B's queue (from 27 Nov): the network's first SPRT (done: H1 at 1,035 games; returns at
# once), the MPC grids (issue 28 section 2), the margins' SPSA with the network and its SPRT
# (issue 27 section 3; from the third session of 27 Nov), the scaling study's remaining points, then the Se
# SPRT (paused 27 Nov 03:55 at 2,652 games, +5.2 +- 13.2 nElo, LLR 0.05: a true value near the
# middle of [0, 10] makes it the longest SPRT there is, and the study's 40k and 160k points say
# more about Se). Each step resumes from its files; a finished one returns at once.
cd /work/campaign
./gen1-sprt.sh
bash grids.sh
./margins-spsa.sh
[ -x margins-sprt.sh ] && ./margins-sprt.sh
nice -n 10 bin/augur-lab-e3809f7 scaling --engine /work/campaign/bin/augur-e3809f7 \
  --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd \
  --collect-epd /work/shared/data/positions/games-sample.epd --out scaling >> logs/scaling.log 2>&1
./se-sprt.sh
