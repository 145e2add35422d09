#!/bin/bash
# Core C's share of the scaling study (from 28 Nov, ninth session): the MPC point at 40k nodes,
# played beside core B's run of the same study (same binary, openings, seed and --out; core B
# plays the 40k points in the order seed004, se, probcut, mpc, so this point, its last, is
# finished long before core B reaches it, and core B then finds it done). The study's bill is
# the smaller of the two issues' (about 20 CPU-hours against datagen's 85), so it gets two of
# the four shares of the cores until its 40k points are played. Resumes from its PGN.
cd /work/campaign
nice -n 19 bin/augur-lab-e3809f7 scaling --engine /work/campaign/bin/augur-e3809f7 \
  --openings /work/shared/data/openings/UHO_4060_v4-sample10k.epd \
  --collect-epd /work/shared/data/positions/games-sample.epd --out scaling \
  -t mpc --nodes 40000 --games 2000 >> logs/scaling-c.log 2>&1
