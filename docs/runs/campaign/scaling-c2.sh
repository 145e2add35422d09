#!/bin/bash
# A second share of the scaling study (from 28 Nov, fifteenth session): the MPC point at 160k
# nodes, 1,100 games, played beside core B's run of the same study (same binary, openings, seed
# and --out, as scaling-c.sh played MPC at 40k). Core B plays every technique at 40k before
# any at 160k, and MPC last at each control, so it reaches this point, its last, long after
# this run has finished it, and then finds its games played. Resumes from its PGN.
cd /work/campaign
nice -n 19 bin/augur-lab-e3809f7 scaling --engine /work/campaign/bin/augur-e3809f7 \
  --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd \
  --collect-epd /work/shared/data/positions/games-sample.epd --out scaling \
  -t mpc --nodes 160000 --games 1100 >> logs/scaling-c2.log 2>&1
