#!/bin/bash
# Core C's share of the scaling study (from 28 Nov, ninth session): the MPC point at 40k nodes,
# played beside core B's run of the same study (same binary, openings, seed and --out; core B
# plays the 40k points in the order seed004, se, probcut, mpc, so this point, its last, is
# finished long before core B reaches it, and core B then finds it done). The study's bill is
# the smaller of the two issues' (about 20 CPU-hours against datagen's 85), so it gets two of
# the four shares of the cores until its 40k points are played. Resumes from its PGN.
cd /work/campaign
./scaling-point.sh mpc 40000 2000 scaling-c
